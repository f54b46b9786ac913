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

function startServer() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kit-'));
  const proc = spawn(serverBinary(), ['--listen', '127.0.0.1:0'], {
    env: { ...process.env, SPLENDOR_BOT_DELAY_MS: '0', SPLENDOR_DATABASE_URL: `sqlite://${dir}/kit.db` },
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
  const check = frameChecker();
  try {
    const result = await kit.play((state) => {
      assert.ok(state.myTurn);
      assert.strictEqual(state.me.seat, state.you);
      return state.legal_actions[state.legal_actions.length - 1];
    }, {
      url: server.url, name: 'nodekit', tokenFile, create: { seats: 2, bots: ['greedy'] },
      onFrame: (frame) => { check(frame); seen.add(frame.type); },
    });
    assert.strictEqual(result.ranking.length, 2);
    assert.ok(result.ranking.some((r) => r.name === 'nodekit'));
    assert.strictEqual(fs.readFileSync(tokenFile, 'utf8').trim().length, 64);
    for (const kind of ['welcome', 'room', 'state', 'events', 'result']) assert.ok(seen.has(kind), kind);
  } finally {
    server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
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
