// The kit against the real server binary: whole games, every frame checked
// against docs/protocol.schema.json when it is there. Needs the server:
// SPLENDOR_SERVER_BIN, or target/debug/splendor-server (cargo build -p splendor-server).
'use strict';

const { test } = require('node:test');
const assert = require('node:assert');
const { spawn, execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const kit = require('..');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCHEMA = path.join(ROOT, 'docs', 'protocol.schema.json');

function serverBinary() {
  const bin = process.env.SPLENDOR_SERVER_BIN || path.join(ROOT, 'target', 'debug', 'splendor-server');
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: run cargo build -p splendor-server first`);
  return bin;
}

// The server binary on a free port; `env` adds settings (e.g. its limits).
function startServer(env = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-'));
  const proc = spawn(serverBinary(), ['--listen', '127.0.0.1:0'], {
    env: { ...process.env, SPLENDOR_BOT_DELAY_MS: '0', SPLENDOR_DATABASE_URL: `sqlite://${dir}/kit.db`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk) => {
      buffer += chunk;
      const m = buffer.match(/listening on (\S+)/) || buffer.match(/"message":"listening","addr":"([^"]+)"/);
      if (m) resolve({ url: `ws://${m[1]}/ws`, stop: () => { proc.kill('SIGKILL'); fs.rmSync(dir, { recursive: true, force: true }); } });
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`the server exited (${code}): ${buffer}`)));
  });
}

function frameChecker() {
  if (!fs.existsSync(SCHEMA)) return () => {};
  const Ajv = require('ajv/dist/2020');
  const schema = JSON.parse(fs.readFileSync(SCHEMA, 'utf8'));
  const validate = new Ajv({ strict: false, allErrors: false }).compile(schema);
  return (frame) => {
    if (!validate(frame)) {
      throw new Error(`frame does not match the schema: ${JSON.stringify(validate.errors[0])}\n${JSON.stringify(frame).slice(0, 400)}`);
    }
  };
}

test('a whole game against the greedy bot, every frame valid', async () => {
  const server = await startServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-token-'));
  const tokenFile = path.join(tmp, 'token');
  const seen = new Set();
  const rooms = [];
  const check = frameChecker();
  try {
    let lean = 0;
    const result = await kit.play((state) => {
      assert.ok(state.myTurn);
      assert.strictEqual(state.me.seat, state.you);
      // Lean states (issue 24) read back whole: cards with their cost,
      // nobles with what they require, every player's name.
      for (const level of state.levels) {
        for (const card of level.cards) assert.ok(card === null || (card.level === level.level && card.bonus), JSON.stringify(card));
      }
      assert.ok(state.nobles.every((n) => n.requires), JSON.stringify(state.nobles));
      assert.ok(state.players.every((p) => p.name), JSON.stringify(state.players));
      assert.ok(state.game);
      return state.legal_actions[state.legal_actions.length - 1];
    }, {
      url: server.url, name: 'nodekit', tokenFile, create: { seats: 2, bots: ['greedy'], listed: true, turn_based: { per_move_s: 86400 } },
      onFrame: (frame) => {
        check(frame);
        seen.add(frame.type);
        if (frame.type === 'room') rooms.push(frame);
        if (frame.type === 'state' && frame.lean) lean += 1;
      },
    });
    // The kit asks for lean states, what bots are meant to use.
    assert.ok(lean > 0, 'no lean state came');
    // Every create option goes to the server (issue 24): listed, turn_based.
    assert.ok(rooms.length && rooms.every((r) => r.listed === true), JSON.stringify(rooms[0]));
    assert.ok(rooms.every((r) => r.turn_based && r.turn_based.per_move_s === 86400), JSON.stringify(rooms[0]));
    assert.strictEqual(result.ranking.length, 2);
    assert.ok(result.ranking.some((r) => r.name === 'nodekit'));
    assert.strictEqual(fs.readFileSync(tokenFile, 'utf8').trim().length, 64);
    for (const kind of ['welcome', 'room', 'state', 'events', 'result']) assert.ok(seen.has(kind), kind);
  } finally {
    server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('an illegal move is refused by the server and reported to the bot (issue 24, defect 3)', { timeout: 120000 }, async () => {
  const server = await startServer();
  const refusals = [];
  let turns = 0;
  try {
    // Passes when it may not at its first three turns, then plays on.
    const result = await kit.play((state) => {
      turns += 1;
      return turns <= 3 ? 'pass' : state.legal_actions[state.legal_actions.length - 1];
    }, {
      url: server.url, name: 'stubborn', create: { seats: 2, bots: ['greedy'] },
      onRefused: (e) => refusals.push(e), log: () => {},
    });
    assert.strictEqual(result.refused, 3);
    assert.strictEqual(result.refused, refusals.length);
    assert.strictEqual(refusals[0].code, 'pass_not_allowed');
    assert.strictEqual(refusals[0].rule, 'R11.1');
    assert.strictEqual(result.ranking.length, 2);
  } finally {
    server.stop();
  }
});

test('a bot resigns at its second turn and gets the result (R13)', async () => {
  const server = await startServer();
  const check = frameChecker();
  let turns = 0;
  try {
    const result = await kit.play((state) => {
      turns += 1;
      return turns === 2 ? kit.RESIGN : state.legal_actions[0];
    }, { url: server.url, name: 'quitter', create: { seats: 2, bots: ['greedy'] }, onFrame: check });
    const me = result.ranking.find((r) => r.name === 'quitter');
    // Against one bot only bots would be left: the game ends at once (R13.2).
    assert.deepStrictEqual(result.resigned, [me.seat]);
    assert.strictEqual(result.ranking[result.ranking.length - 1].name, 'quitter');
    assert.ok(!result.winners.includes(me.seat));
    assert.strictEqual(turns, 2);
    // How it ended is one field (R13.2: only bots were left).
    assert.strictEqual(result.end, 'resigned');
  } finally {
    server.stop();
  }
});

test('the same token file plays a new game each time; ids 0 are ids', async () => {
  const server = await startServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-again-'));
  try {
    const options = { url: server.url, name: 'again', tokenFile: path.join(tmp, 'token'), create: { seats: 2, bots: ['greedy'] }, log: () => {} };
    const first = await kit.play((s) => s.legal_actions[s.legal_actions.length - 1], options);
    const second = await kit.play((s) => s.legal_actions[s.legal_actions.length - 1], options);
    assert.notStrictEqual(first.game, second.game);
  } finally {
    server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  assert.notStrictEqual(kit.actionKey({ buy: 0 }), kit.actionKey({ reserve: 0 }));
  assert.ok(kit.isLegal({ buy: { card: 0, gold: { red: 1 } } }, [{ buy: 0 }]));
  assert.ok(!kit.isLegal({ buy: { card: 5, gold: { red: 1 } } }, [{ buy: 0 }]));
});

test('a room that does not exist is an error', async () => {
  const server = await startServer();
  try {
    await assert.rejects(kit.play((s) => s.legal_actions[0], { url: server.url, room: 'QQQQQ', log: () => {} }), /room_not_found/);
  } finally {
    server.stop();
  }
});

test('the template bot plays a game', async () => {
  const server = await startServer();
  try {
    const out = await new Promise((resolve, reject) => {
      execFile('node', [path.join(__dirname, '..', 'examples', 'template_bot.js')], {
        env: { ...process.env, SPLENDOR_URL: server.url }, timeout: 120000,
      }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
    });
    assert.match(out, /winners:/);
  } finally {
    server.stop();
  }
});

test('a bot script keeps its identity beside itself with no setting (issue 24)', async () => {
  const os = require('node:os');
  const server = await startServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-'));
  try {
    // The template, run as `node my_bot.js` from elsewhere, with the kit.
    const template = fs.readFileSync(path.join(__dirname, '..', 'examples', 'template_bot.js'), 'utf8');
    const bot = path.join(dir, 'my_bot.js');
    fs.writeFileSync(bot, template.replace(/require\((['"])[^'"]*\1\)/, `require(${JSON.stringify(path.join(__dirname, '..'))})`));
    const env = { ...process.env, SPLENDOR_URL: server.url };
    delete env.NODE_TEST_CONTEXT;
    delete env.SPLENDOR_TOKEN_FILE;
    const runs = [];
    for (let i = 0; i < 2; i += 1) {
      const stderr = await new Promise((resolve, reject) => {
        execFile('node', [bot], { env, timeout: 120000 },
          (err, _stdout, errs) => (err ? reject(new Error(`${err.message}\n${errs}`)) : resolve(errs)));
      });
      runs.push({ token: fs.readFileSync(path.join(dir, 'my_bot.token'), 'utf8').trim(), stderr });
    }
    assert.equal(runs[0].token.length, 64);
    assert.equal(runs[1].token, runs[0].token, 'the second run played as the same session');
    assert.match(runs[0].stderr, /keeping this bot's identity/);
    assert.doesNotMatch(runs[1].stderr, /keeping this bot's identity/);
  } finally {
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function getJson(url) {
  const http = require('node:http');
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(body) }));
    }).on('error', reject);
  });
}

test('quick play: two kit bots queue, play a rated game and are rated with the bots', async () => {
  const server = await startServer();
  const check = frameChecker();
  const ids = {};
  const bot = (name, pick) => kit.play((state) => pick(state.legal_actions), {
    url: server.url, name, queue: 2,
    log: () => {},
    onFrame: (frame) => {
      check(frame);
      if (frame.type === 'welcome') {
        assert.strictEqual(frame.bot, true);
        ids[name] = frame.player_id;
      }
    },
  });
  try {
    // Buy when possible (games end), else take tokens, else anything.
    const buyer = (pick) => (legal) => {
      const buys = legal.filter((a) => a && typeof a === 'object' && 'buy' in a);
      const takes = legal.filter((a) => a && typeof a === 'object' && ('take' in a || 'take_two' in a));
      const pool = buys.length ? buys : takes.length ? takes : legal;
      return pick(pool);
    };
    const [a, b] = await Promise.all([
      bot('first', buyer((pool) => pool[0])),
      bot('last', buyer((pool) => pool[pool.length - 1])),
    ]);
    assert.deepStrictEqual(a.ranking, b.ranking, 'both played the same game');
    const http = server.url.replace('ws://', 'http://').replace(/\/ws$/, '');
    for (const name of ['first', 'last']) {
      const { status, body } = await getJson(`${http}/api/players/${ids[name]}`);
      assert.strictEqual(status, 200);
      assert.strictEqual(body.games, 1);
      assert.strictEqual(body.bot, true);
      const place = a.ranking.find((r) => r.name === name).rank;
      const other = a.ranking.find((r) => r.name !== name).rank;
      if (place < other) assert.ok(body.rating > 1500, JSON.stringify(body));
      if (place > other) assert.ok(body.rating < 1500, JSON.stringify(body));
    }
    const { body: board } = await getJson(`${http}/api/leaderboard?kind=bots`);
    assert.strictEqual(board.total, 2);
  } finally {
    server.stop();
  }
});

// Buys when possible (games end), else takes tokens, else anything. With
// buyEvery = n it buys at one chance in n only and takes tokens otherwise:
// longer games, more messages.
function buyer(pick, buyEvery = 1) {
  let chances = 0;
  return (state) => {
    const legal = state.legal_actions;
    let buys = legal.filter((a) => a && typeof a === 'object' && 'buy' in a);
    const takes = legal.filter((a) => a && typeof a === 'object' && ('take' in a || 'take_two' in a));
    if (buys.length) {
      chances += 1;
      if (chances % buyEvery) buys = [];
    }
    const pool = buys.length ? buys : takes.length ? takes : legal;
    return pick(pool);
  };
}

// Rejects after `ms`: the tests below are bounded even if a kit freezes.
function within(ms, promise, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: not over after ${ms} ms`)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// Two kit bots queue for the same rated game and play it to the end at once
// (no delay of their own): their results and every frame each got. Without
// reconnecting, so that a stopped server ends them.
async function quickPlayPair(url, { buyEvery = 1, timeoutMs }) {
  const frames = { first: [], last: [] };
  const bot = (name, pick) => kit.play(buyer(pick, buyEvery), {
    url, name, queue: 2, maxReconnects: 0, log: () => {}, onFrame: (frame) => frames[name].push(frame),
  });
  const results = await within(timeoutMs, Promise.all([
    bot('first', (pool) => pool[0]),
    bot('last', (pool) => pool[pool.length - 1]),
  ]), 'the game');
  return { results, frames };
}

const refusals = (frames) => frames.filter((f) => f.type === 'error' && f.code === 'rate_limited');

test('two kit bots without delay finish a game at the default rate limit', { timeout: 90000 }, async () => {
  // Games long enough (they buy at one chance in three) that each bot sends
  // more than the default burst of 40 faster than 20 a second: a refused
  // move is sent again after the wait, never lost (a kit that only logged
  // the refusal froze here).
  const server = await startServer();
  const check = frameChecker();
  try {
    const { results: [a, b], frames } = await quickPlayPair(server.url, { buyEvery: 3, timeoutMs: 60000 });
    assert.deepStrictEqual(a.ranking, b.ranking, 'both played the same game to the end');
    assert.strictEqual(a.ranking.length, 2);
    for (const got of Object.values(frames)) {
      assert.ok(got.some((f) => f.type === 'result'));
      got.forEach(check);
    }
  } finally {
    server.stop();
  }
});

test('a refused kit waits, sends again and finishes the game', { timeout: 150000 }, async () => {
  // At 5 messages a second in bursts of 5, two kit bots answering at once
  // are refused (rate_limited) and still play the game to the end: each
  // refusal names a message the kit sent and the wait, the kit sends it
  // again after the wait and spaces its messages out, so it is refused a
  // few times only and never closed (4003).
  const server = await startServer({ SPLENDOR_MAX_MESSAGES_PER_SECOND: '5', SPLENDOR_MESSAGE_BURST: '5' });
  const check = frameChecker();
  try {
    const { results: [a, b], frames } = await quickPlayPair(server.url, { timeoutMs: 120000 });
    assert.deepStrictEqual(a.ranking, b.ranking, 'both played the same game to the end');
    const refused = Object.values(frames).map(refusals);
    assert.ok(refused.flat().length >= 1, 'the low limit refused the kit at least once');
    for (const [name, got] of Object.entries(frames)) {
      assert.ok(got.some((f) => f.type === 'result'), name);
      got.forEach(check);
      const errors = refusals(got);
      for (const error of errors) {
        assert.strictEqual(typeof error.id, 'number', JSON.stringify(error));
        assert.ok(error.retry_after_ms > 0, JSON.stringify(error));
      }
      // Spacing its messages out after a refusal, the kit is not refused at
      // every move (a game has over 25 moves a player).
      assert.ok(errors.length <= 10, `${name} kept going over the rate: ${JSON.stringify(errors)}`);
    }
  } finally {
    server.stop();
  }
});

test('an invalid token file says hello anew, still as a bot', { timeout: 90000 }, async () => {
  // The stored token is refused (invalid_token): the kit says hello with its
  // name instead, with "bot": true as in its first hello, and keeps the new token.
  const server = await startServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-renew-'));
  const tokenFile = path.join(tmp, 'token');
  fs.writeFileSync(tokenFile, 'ab'.repeat(32));
  const welcomes = [];
  const logged = [];
  try {
    const result = await within(60000, kit.play((s) => s.legal_actions[s.legal_actions.length - 1], {
      url: server.url, name: 'renewed', tokenFile, create: { seats: 2, bots: ['greedy'] }, maxReconnects: 0,
      log: (line) => logged.push(line),
      onFrame: (frame) => { if (frame.type === 'welcome') welcomes.push(frame); },
    }), 'the game');
    assert.ok(result.ranking.some((r) => r.name === 'renewed'));
    assert.strictEqual(welcomes.length, 1);
    assert.strictEqual(welcomes[0].bot, true, JSON.stringify(welcomes[0]));
    assert.ok(logged.some((line) => /rated with the bots/.test(line)), logged.join('\n'));
    assert.strictEqual(fs.readFileSync(tokenFile, 'utf8').trim(), welcomes[0].token);
  } finally {
    server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('myGames lists the turn-based games a bot sits in (issue 25)', async () => {
  const server = await startServer();
  const WebSocket = require('ws');
  try {
    const ws = new WebSocket(server.url);
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
    const frames = [];
    let wake = null;
    ws.on('message', (data) => { frames.push(JSON.parse(data)); if (wake) wake(); });
    const request = async (message, kind) => {
      ws.send(JSON.stringify(message));
      for (;;) {
        const i = frames.findIndex((f) => f.type === kind || f.type === 'error');
        if (i >= 0) {
          const [frame] = frames.splice(0, i + 1).slice(-1);
          if (frame.type === 'error') throw new Error(JSON.stringify(frame));
          return frame;
        }
        await new Promise((resolve) => { wake = resolve; });
      }
    };
    const { token } = await request({ type: 'hello', name: 'many' }, 'welcome');
    const codes = [];
    for (let i = 0; i < 2; i += 1) {
      const room = await request({ type: 'create', seats: 2, turn_based: { per_move_s: 86400 } }, 'room');
      codes.push(room.code);
      await request({ type: 'add_bot', level: 'greedy' }, 'room');
      await request({ type: 'start', seat_order: 'joined' }, 'state');
      await request({ type: 'leave' }, 'left');
    }
    ws.close();
    const games = await kit.myGames(token, { url: server.url });
    assert.deepEqual(games.map((g) => g.room).sort(), codes.sort());
    assert.ok(games.every((g) => g.your_turn && g.deadline), JSON.stringify(games));
    await assert.rejects(kit.myGames('not-a-token', { url: server.url }), /401/);
  } finally {
    server.stop();
  }
});

test('a kit bot invites another, which finds the invitation and plays (issue 25)', async () => {
  const server = await startServer();
  const WebSocket = require('ws');
  try {
    // The guest's session, and its player_id.
    const ws = new WebSocket(server.url);
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
    const welcome = await new Promise((resolve) => {
      ws.once('message', (data) => resolve(JSON.parse(data)));
      ws.send(JSON.stringify({ type: 'hello', name: 'guest', bot: true }));
    });
    ws.close();
    // Buyers, so that the game ends (two bots that only take tokens could go on for ever).
    const buying = (pick) => (s) => {
      const legal = s.legal_actions;
      const buys = legal.filter((a) => a && typeof a === 'object' && 'buy' in a);
      const takes = legal.filter((a) => a && typeof a === 'object' && ('take' in a || 'take_two' in a));
      return pick(buys.length ? buys : takes.length ? takes : legal);
    };
    let invited;
    const wasInvited = new Promise((resolve) => { invited = resolve; });
    const host = kit.play(buying((pool) => pool[pool.length - 1]), {
      url: server.url, name: 'host', log: () => {},
      create: { seats: 2, turn_based: { per_move_s: 86400 }, invite: [welcome.player_id] },
      onFrame: (f) => { if (f.type === 'invited') invited(f); },
    });
    const answer = await wasInvited;
    assert.equal(answer.name, 'guest');
    const found = await kit.invitations(welcome.token, { url: server.url });
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.deepEqual([found[0].room, found[0].from.name], [answer.room, 'host']);
    const guest = await kit.play(buying((pool) => pool[0]), {
      url: server.url, room: found[0].room, session: { token: welcome.token }, log: () => {},
    });
    const first = await host;
    assert.equal(first.game, guest.game);
    // Joined: the invitation is gone; declining it now is a 404.
    assert.deepEqual(await kit.invitations(welcome.token, { url: server.url }), []);
    await assert.rejects(kit.declineInvitation(welcome.token, found[0].id, { url: server.url }), /404/);
    // An unknown player id: the host's kit says so rather than wait.
    await assert.rejects(kit.play((s) => s.legal_actions[0], {
      url: server.url, name: 'lonely', log: () => {}, create: { seats: 2, invite: ['0000000000'] },
    }), /player_not_found/);
  } finally {
    server.stop();
  }
});

test('one process plays several games at once as several bots of one owner (issue 51)', { timeout: 120000 }, async () => {
  const server = await startServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-many-'));
  try {
    const buyFirst = (s) => s.legal_actions.find((a) => a && a.buy !== undefined) || s.legal_actions[0];
    const results = await Promise.all([0, 1, 2].map((i) => kit.play(buyFirst, {
      url: server.url, name: `many-${i}`, tokenFile: path.join(dir, `many-${i}.token`), log: () => {},
      owner: "one author's secret", create: { seats: 2, bots: ['greedy'] },
    })));
    assert.equal(new Set(results.map((r) => r.game)).size, 3, 'three games');
    results.forEach((r, i) => assert.ok(r.ranking.some((p) => p.name === `many-${i}`), JSON.stringify(r.ranking)));
  } finally {
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a kit bot takes challenges, declines one with a reason and plays the one it accepts (issue 24)', { timeout: 120000 }, async () => {
  const server = await startServer();
  const check = frameChecker();
  try {
    const buying = (pick) => (s) => {
      const legal = s.legal_actions;
      const buys = legal.filter((a) => a && typeof a === 'object' && 'buy' in a);
      const takes = legal.filter((a) => a && typeof a === 'object' && ('take' in a || 'take_two' in a));
      return pick(buys.length ? buys : takes.length ? takes : legal);
    };
    const seen = [];
    const waiting = kit.play(buying((pool) => pool[0]), {
      url: server.url, name: 'waiter', log: () => {}, onFrame: check,
      onChallenge: (c) => {
        seen.push(c);
        return c.terms.clock && c.terms.clock.initial_s < 120 ? 'too_fast' : true;
      },
    });
    let online = [];
    for (let i = 0; i < 300 && online.length === 0; i += 1) {
      online = await kit.botsOnline({ url: server.url });
      if (online.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(online.map((b) => b.name), ['waiter']);
    const target = online[0].player_id;
    await assert.rejects(kit.play((s) => s.legal_actions[0], {
      url: server.url, name: 'hasty', log: () => {}, onFrame: check,
      create: { seats: 2, clock: { initial_s: 30, increment_s: 0 }, invite: [target] },
    }), /waiter .*declined the challenge: too_fast/);
    // Issue 51, defect 3: run() rejects with the same KitError (it
    // resolved null), and sets the exit code for scripts.
    const before = process.exitCode;
    await assert.rejects(kit.run((s) => s.legal_actions[0], {
      url: server.url, name: 'hasty-run', log: () => {},
      create: { seats: 2, clock: { initial_s: 30, increment_s: 0 }, invite: [target] },
    }), (e) => e instanceof kit.KitError && /declined the challenge: too_fast/.test(e.message));
    assert.equal(process.exitCode, 1);
    process.exitCode = before;
    const challenger = await kit.play(buying((pool) => pool[pool.length - 1]), {
      url: server.url, name: 'patient', log: () => {}, onFrame: check,
      create: { seats: 2, clock: { initial_s: 600, increment_s: 5 }, invite: [target] },
    });
    const accepted = await waiting;
    assert.equal(challenger.game, accepted.game);
    assert.deepEqual(seen.map((c) => c.from.name), ['hasty', 'hasty-run', 'patient']);
  } finally {
    server.stop();
  }
});

test("a program's name is its own on a server (issue 24)", { timeout: 120000 }, async () => {
  const server = await startServer();
  try {
    const first = await kit.play((s) => s.legal_actions.find((a) => a && a.buy !== undefined) || s.legal_actions[0], {
      url: server.url, name: 'unique-one', log: () => {},
    });
    assert.ok(first.game);
    await assert.rejects(kit.play((s) => s.legal_actions[0], {
      url: server.url, name: 'Unique-One', log: () => {},
    }), /name_taken/);
    // Two bots with no name given: each gets one of its own.
    const names = new Set();
    for (let i = 0; i < 2; i += 1) {
      const r = await kit.play((s) => s.legal_actions.find((a) => a && a.buy !== undefined) || s.legal_actions[0], {
        url: server.url, log: () => {},
      });
      r.ranking.forEach((p) => names.add(p.name));
    }
    assert.equal([...names].filter((n) => /^nodebot-/.test(n)).length, 2, [...names].join(', '));
  } finally {
    server.stop();
  }
});

test('ladder bots of one owner never meet and wait their turn (issue 24)', { timeout: 120000 }, async () => {
  const server = await startServer({ SPLENDOR_LADDER_GAMES_PER_OWNER: '1', SPLENDOR_LADDER_RETRY_MS: '200' });
  try {
    const buying = (s) => s.legal_actions.find((a) => a && typeof a === 'object' && 'buy' in a)
      || s.legal_actions.find((a) => a && typeof a === 'object' && ('take' in a || 'take_two' in a))
      || s.legal_actions[0];
    const frames = {};
    const ladder = (name, owner, games) => {
      frames[name] = [];
      return kit.run(buying, {
        url: server.url, name, owner, ladder: 2, games, log: () => {}, onFrame: (f) => frames[name].push(f),
      });
    };
    // Alice's two can only play Bob, who plays two games in a row.
    const results = await Promise.all([
      ladder('alice-1', "alice's secret", 1), ladder('alice-2', "alice's secret", 1), ladder('bob', "bob's secret", 2),
    ]);
    for (const result of results.slice(0, 2)) {
      assert.ok(result, 'every ladder bot finished its game');
      const names = result.ranking.map((r) => r.name);
      assert.ok(!(names.includes('alice-1') && names.includes('alice-2')), names.join(', '));
      assert.ok(names.includes('bob'), names.join(', '));
    }
    assert.notEqual(results[0].game, results[1].game);
    const waits = [...frames['alice-1'], ...frames['alice-2']].filter((f) => f.type === 'error' && f.code === 'too_many_games');
    assert.ok(waits.every((f) => f.retry_after_ms === 200), JSON.stringify(waits));
  } finally {
    server.stop();
  }
});
