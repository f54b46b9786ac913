// Starter kit for Splendor server bots in Node (docs/BOTS.md).
//
// Write one function, choose(state) -> action, returning one entry of
// state.legal_actions; the kit connects, says hello (or resumes the session
// whose token it kept), joins or creates the room, sends your action with
// expect_version, reconnects and resumes after a server restart (close code
// 1012) or a dropped connection, and resolves with the result.
//
//   const kit = require('splendor-kit');
//   kit.run((state) => state.legal_actions[0]);
//
// Settings come from options or the environment (the arena sets the first
// three): SPLENDOR_URL (default ws://127.0.0.1:8080/ws), SPLENDOR_ROOM (the
// room to join as a player), SPLENDOR_BOT_NAME, SPLENDOR_TOKEN_FILE (where
// the session token is kept: the bot's identity and rating; by default
// `my_bot.token` beside the script `node my_bot.js`; `none` for none),
// SPLENDOR_QUEUE (2, 3 or 4: quick play, a rated game with whoever is
// waiting), SPLENDOR_GAMES (games in a row, default 1). A room to join wins
// over the queue, the queue over creating a room with a bot. The kit says
// "bot":true in hello: it is ranked with the bots.
//
// The kit sends what choose returns, as it is: a move that is not legal is
// the server's to refuse, with the rule it breaks (pass_not_allowed, R11.1,
// ...). The kit then tells the bot (options.onRefused(error) if given, and
// the log), counts it (result.refused; the arena's table shows it too) and
// plays the first legal action on the state sent again, so that the game
// goes on.
//
// To resign (RULES.md R13), choose returns kit.RESIGN: the kit sends
// {"type":"resign"}. The game ends at once when only one person (or only
// bots) would be left, else the server's stand-in plays the seat to the
// end; either way the kit resolves with the result, where the bot ranks
// below everyone who did not resign.
//
// Challenges (issue 24): play(choose, { onChallenge }) (or
// SPLENDOR_CHALLENGES=accept) says "challenges":true in hello, so the bot is
// listed by GET /api/bots/online (botsOnline()), and waits for a challenge
// instead of making a room: onChallenge(challenge) returns true to accept
// (the kit joins the room and plays it), or a reason to decline ('later',
// 'too_fast', 'rated', ... or false for 'generic'); while it plays, other
// challenges are declined 'later'. To challenge a bot: create: { seats: 2,
// invite: [itsPlayerId], rated: true }; a declined challenge is a KitError
// saying why.
//
// The ladder (issue 24): run(choose, { ladder: 2 }) (or SPLENDOR_LADDER=2)
// plays rated games of 2 (3, 4) with the other bots in quick play, one
// after the other, for ever (or `games` of them), waiting when the server
// says the owner's or the address's bots already play as many as it allows
// (too_many_games). `owner` (SPLENDOR_OWNER) names the author: a secret of 8
// to 128 characters given to all one's bots, so that they never play each
// other and are capped together.
//
// Names: a program's name is unique among programs on a server. Without
// SPLENDOR_BOT_NAME the kit names a new bot after its script with a few
// random letters (my_bot-k3f9), kept with the token; a name given that
// another program holds is a KitError saying so.
//
// Every message the kit sends has an id. When the server refuses one for
// going over its message rate (rate_limited), the kit waits the error's
// retry_after_ms (1 s if absent), then sends that message again (a move only
// if it still answers the latest state), and from then on spaces its
// messages out so as not to be refused again.
'use strict';

const fs = require('node:fs');
const WebSocket = require('ws');
const {
  DEFAULT_URL, KitError, expandLean, catalogue, myGames, invitations, declineInvitation, botsOnline,
} = require('./api');
const { defaultTokenFile, defaultName } = require('./identity');

const SERVICE_RESTART = 1012;
const TOKENS = ['white', 'blue', 'green', 'red', 'black', 'gold'];
// What choose() returns to resign the game (R13): never a legal action.
const RESIGN = 'resign';
// rate_limited without retry_after_ms: wait this long (ms) before sending again.
const RATE_LIMIT_FALLBACK_MS = 1000;
// After a refusal the kit spaces its messages at least this far apart (ms),
// more if the server's wait says so, doubling while still refused, up to
// RATE_LIMIT_MAX_GAP_MS.
const RATE_LIMIT_MIN_GAP_MS = 50;
const RATE_LIMIT_MAX_GAP_MS = 1000;
// How many sent messages are remembered, to send one again when refused.
const REMEMBERED_MESSAGES = 64;
// Why a challenge may be declined (docs/PROTOCOL.md, `decline`).
const DECLINE_REASONS = ['generic', 'later', 'too_fast', 'too_slow', 'time_control', 'rated', 'casual', 'no_bot', 'only_bot'];
const now = () => performance.now();


// Actions compare by their JSON with sorted keys and ordered colour lists.
function actionKey(value) {
  if (Array.isArray(value)) {
    return `[${[...value].sort((a, b) => TOKENS.indexOf(a) - TOKENS.indexOf(b)).map(actionKey).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    // A zero colour count is the same as none; a zero id is an id.
    const keys = Object.keys(value).filter((k) => !(TOKENS.includes(k) && value[k] === 0)).sort();
    return `{${keys.map((k) => `${k}:${actionKey(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const buyCard = (a) => (a && typeof a === 'object' && 'buy' in a
  ? (typeof a.buy === 'object' && a.buy !== null ? a.buy.card : a.buy) : undefined);

// An entry of the list, or a buy of a card the list lets you buy, with the
// gold named per colour (the server checks the payment).
function isLegal(action, legal) {
  const key = actionKey(action);
  if (legal.some((a) => actionKey(a) === key)) return true;
  const card = buyCard(action);
  return card !== undefined && typeof action.buy === 'object' && legal.some((a) => buyCard(a) === card);
}

function withHelpers(state) {
  return Object.assign(state, {
    legal_actions: state.legal_actions || [],
    get me() { return state.you === undefined ? undefined : state.players[state.you]; },
    get myTurn() { return state.you !== undefined && state.to_act === state.you && state.legal_actions.length > 0; },
  });
}

/**
 * Plays one game and resolves with its `result` message.
 * options: url, room, name, tokenFile, create ({seats, bots: ['greedy'], clock,
 * turn_based, invite: [player_id, ...]: invited once the room is made}),
 * onFrame (sees every frame), onRefused (sees the server's error for each
 * move of choose it refused), onChallenge (take challenges, issue 24: without
 * a room, queue or create, wait for one and play it), maxReconnects, log (a
 * function, default console.error). The result carries `refused`: this
 * bot's refused moves.
 */
async function play(choose, options = {}) {
  const url = options.url || process.env.SPLENDOR_URL || DEFAULT_URL;
  const room = options.room || process.env.SPLENDOR_ROOM || null;
  const queue = room ? null : Number(options.queue || process.env.SPLENDOR_QUEUE || 0) || null;
  if (queue !== null && ![2, 3, 4].includes(queue)) throw new KitError(`quick play has games of 2, 3 or 4 players, not ${queue}`);
  const game = {
    choose,
    room,
    queue,
    queueId: null,
    name: options.name || process.env.SPLENDOR_BOT_NAME || defaultName(),
    nameGiven: Boolean(options.name || process.env.SPLENDOR_BOT_NAME),
    onChallenge: options.onChallenge
      || ((process.env.SPLENDOR_CHALLENGES || '').toLowerCase() === 'accept' ? () => true : null),
    // The room we went to on a challenge, until its game starts, and the
    // challenges answered (one may be told twice).
    challengeRoom: null,
    answered: new Set(),
    // Lean states are read with the server's catalogue and the last full
    // state of our game (its names and fixed fields).
    catalogue: null,
    lastFull: null,
    // The author's secret (issue 24), said in every hello.
    owner: options.owner || process.env.SPLENDOR_OWNER || null,
    tokenFile: options.tokenFile || process.env.SPLENDOR_TOKEN_FILE || defaultTokenFile(),
    shared: options.session || {},
    create: options.create || null,
    onFrame: options.onFrame || null,
    onRefused: options.onRefused || null,
    refusedMoves: 0,
    log: options.log || ((...a) => console.error('splendor-kit:', ...a)),
    token: null,
    started: false,
    createId: null,
    entryId: null,
    actId: null,
    refused: false,
    bots: [],
    // Players to invite by player_id once our room is made (issue 25).
    invite: [],
    inviteIds: new Set(),
    nextId: 1,
    // The latest state of our game: its version, and whether we must act on it.
    version: null,
    myTurn: false,
    // Spacing between messages (ms), from the first rate_limited refusal on.
    gap: 0,
    lastRefusalAt: null,
    // rate_limited refusals met by this game (every connection).
    refusals: 0,
  };
  if (game.tokenFile === 'none') game.tokenFile = null;
  if (!game.room && !game.queue && !game.create && !game.onChallenge) game.create = { seats: 2, bots: ['greedy'] };
  game.bots = [...((game.create && game.create.bots) || [])];
  game.invite = [...((game.create && game.create.invite) || [])];
  game.token = game.shared.token || null;
  if (!game.token && game.tokenFile && fs.existsSync(game.tokenFile)) {
    game.token = fs.readFileSync(game.tokenFile, 'utf8').trim() || null;
  }
  const maxReconnects = options.maxReconnects ?? 8;
  for (let attempt = 0; ; attempt += 1) {
    let outcome;
    if (!game.catalogue) {
      // Lean states are read with it; a server not reachable yet is retried.
      try { game.catalogue = await catalogue({ url }); } catch (e) {
        if (e instanceof KitError) throw e;
        outcome = { code: `catalogue: ${e.message}` };
      }
    }
    if (!outcome) outcome = await session(url, game);
    if (outcome.result) return outcome.result;
    if (outcome.fatal) throw outcome.fatal;
    if (attempt >= maxReconnects) throw new KitError('gave up reconnecting');
    const delay = Math.min(60000, (1000 + Math.random() * 4000) * 2 ** Math.min(attempt, 5));
    game.log(`connection closed (${outcome.code}); resuming in ${Math.round(delay / 1000)} s`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

function session(url, game) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { maxPayload: 4 << 20 });
    let done = false;
    // Sending: messages wait in `outbox` (in id order) and go out one at a
    // time, none before `sendAt`, each `game.gap` ms after the last one;
    // `sent` remembers them by id, with when they left, so that a
    // rate_limited refusal can send one again.
    const outbox = [];
    const sent = new Map();
    let sendAt = 0;
    let timer = null;
    const finish = (outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ws.removeAllListeners('close');
      ws.close();
      resolve(outcome);
    };
    // A move is sent only while it answers the latest state (the version it
    // was chosen on, our turn); anything else always.
    const meaningful = (message) => message.type !== 'act' || (game.myTurn && message.expect_version === game.version);
    const pump = () => {
      timer = null;
      while (!done && outbox.length) {
        const wait = sendAt - now();
        if (wait > 0) { timer = setTimeout(pump, Math.ceil(wait)); return; }
        const message = outbox.shift();
        if (!meaningful(message)) {
          game.log(`not sending ${message.type} ${message.id} again: the game moved on`);
          continue;
        }
        if (ws.readyState !== WebSocket.OPEN) return; // the close handler decides
        sent.set(message.id, { message, at: now() });
        if (sent.size > REMEMBERED_MESSAGES) sent.delete(sent.keys().next().value);
        sendAt = now() + game.gap;
        ws.send(JSON.stringify(message));
      }
    };
    // In id order: a message sent again goes before those queued after it.
    const queue = (message) => {
      const at = outbox.findIndex((m) => m.id > message.id);
      outbox.splice(at < 0 ? outbox.length : at, 0, message);
      if (timer === null) pump();
    };
    const send = (message) => {
      const id = game.nextId++;
      queue({ ...message, id });
      return id;
    };
    // The server did not handle a message: it was over the message rate.
    // Wait what the server says, send that message again (or sync if it
    // cannot be told which), and space messages out from then on.
    const rateLimited = (msg) => {
      game.refusals += 1;
      const t = now();
      const wait = typeof msg.retry_after_ms === 'number' && msg.retry_after_ms >= 0
        ? Math.min(60000, msg.retry_after_ms) : RATE_LIMIT_FALLBACK_MS;
      const refused = msg.id !== undefined && msg.id !== null ? sent.get(msg.id) : undefined;
      if (refused) sent.delete(msg.id);
      // Each refusal of a message sent after the last refusal was known
      // means the spacing is still too short: double it. Refusals of
      // messages already on their way then say nothing new.
      const paced = refused !== undefined && game.lastRefusalAt !== null && refused.at > game.lastRefusalAt;
      game.gap = Math.min(Math.max(paced ? game.gap * 2 : game.gap, wait, RATE_LIMIT_MIN_GAP_MS), Math.max(RATE_LIMIT_MAX_GAP_MS, wait));
      game.lastRefusalAt = t;
      sendAt = Math.max(sendAt, t + wait);
      clearTimeout(timer);
      timer = null;
      if (refused) {
        game.log(`rate_limited: sending ${refused.message.type} ${msg.id} again in ${wait} ms`);
        queue(refused.message);
      } else {
        game.log(`rate_limited (${msg.message}); asking for the state again in ${wait} ms`);
        if (game.room !== null && game.started) send({ type: 'sync' });
        else pump();
      }
    };
    const hello = (extra) => ({
      // Lean states after actions (protocol 2, what bots are meant to use):
      // the kit reads them back with the server's catalogue.
      type: 'hello',
      bot: true,
      ...(game.onChallenge ? { challenges: true } : {}),
      ...(game.owner ? { owner: game.owner } : {}),
      ...extra,
    });
    // Resumes the session of our token (keeping its name, unless the author
    // gave one) or starts one under our name.
    const identify = (extra = {}) => {
      if (!game.token) return hello({ name: game.name, ...extra });
      return hello({ token: game.token, ...(game.nameGiven ? { name: game.name } : {}), ...extra });
    };
    // A challenge (issue 24): the bot decides while it has no game; with
    // one, the kit declines it for later.
    const challenged = (msg) => {
      const who = msg.from && msg.from.name;
      // Told again (after a resume): answered already.
      if (game.answered.has(msg.invitation)) return;
      game.answered.add(msg.invitation);
      if (!game.onChallenge || game.room !== null || game.create || game.queue) {
        game.log(`challenge from ${who} declined: busy`);
        send({ type: 'decline', invitation: msg.invitation, reason: 'later' });
        return;
      }
      let answer;
      try { answer = game.onChallenge(msg); } catch (e) {
        game.log(`onChallenge() failed (${e.message}); declining`);
        answer = 'generic';
      }
      if (answer === true) {
        game.log(`challenge from ${who} accepted: room ${msg.room}`);
        game.room = msg.room;
        game.challengeRoom = msg.room;
        enter();
        return;
      }
      const reason = DECLINE_REASONS.includes(answer) ? answer : 'generic';
      game.log(`challenge from ${who} declined: ${reason}`);
      send({ type: 'decline', invitation: msg.invitation, reason });
    };
    // Join the room, or create one (once); with challenges and nothing else
    // to do, wait for one.
    const enter = () => {
      if (!game.room && !game.queue && !game.create) {
        game.log('waiting for a challenge');
        return;
      }
      if (game.room) game.entryId = send({ type: 'join', code: game.room });
      else if (game.queue) {
        game.queueId = send({ type: 'queue', players: game.queue });
        game.entryId = game.queueId;
      } else if (game.createId === null) {
        const create = { type: 'create', seats: game.create.seats || 2 };
        // Every option `create` takes (docs/PROTOCOL.md), passed as given.
        for (const key of ['clock', 'turn_based', 'listed', 'rated', 'stand_in_when_away']) {
          if (game.create[key] !== undefined && game.create[key] !== null) create[key] = game.create[key];
        }
        game.createId = send(create);
        game.entryId = game.createId;
      }
    };
    // Frames of another room (an earlier game the session was still in) are not ours.
    const ours = (msg) => game.room !== null && (msg.type === 'room' ? msg.code : msg.room) === game.room;
    ws.on('open', () => {
      send(identify());
    });
    ws.on('error', (e) => game.log(`socket error: ${e.message}`));
    ws.on('close', (code) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (code === SERVICE_RESTART || code === 1006 || code === 1005) resolve({ code });
      else resolve({ fatal: new KitError(`the server closed the connection (${code})`) });
    });
    ws.on('message', (data) => {
      let msg;
      try { msg = JSON.parse(data.toString()); } catch { return; }
      if (game.onFrame) {
        try { game.onFrame(msg); } catch (e) { finish({ fatal: e }); return; }
      }
      switch (msg.type) {
        case 'welcome':
          game.token = msg.token;
          game.shared.token = msg.token;
          game.shared.name = msg.name;
          if (game.tokenFile) {
            if (!fs.existsSync(game.tokenFile)) {
              game.log(`keeping this bot's identity (its rating) in ${game.tokenFile}: delete the file to start as a new player`);
            }
            fs.writeFileSync(game.tokenFile, game.token);
          }
          if (!game.shared.announced) {
            game.shared.announced = true;
            game.log(`playing as ${msg.name} #${msg.player_id} (rated with the bots)`);
          }
          if (msg.resumed && game.started) return; // the server sends the room and state again
          enter();
          return;
        case 'invited':
          game.log(`invited ${msg.name} (#${msg.player_id}) to room ${msg.room}`);
          return;
        case 'challenge':
          challenged(msg);
          return;
        case 'room_closed':
          if (game.challengeRoom !== null && msg.room === game.room) {
            game.log(`challenge room ${game.room} closed; waiting for another challenge`);
            game.room = null;
            game.challengeRoom = null;
          }
          return;
        case 'challenge_declined':
          if (game.create && msg.room === game.room && !game.started) {
            const by = msg.by || {};
            finish({ fatal: new KitError(`${by.name} (#${by.player_id}) declined the challenge: ${msg.reason}`) });
          }
          return;
        case 'matched':
          // Quick play: the server seats us; room and state follow.
          if (game.queue && game.room === null) game.room = msg.room;
          return;
        case 'room': {
          if (game.room === null && game.createId !== null && msg.id === game.createId) game.room = msg.code;
          // Matched while the connection was down: the resume seats us there.
          if (game.room === null && game.queue && msg.rated && msg.status === 'playing' && msg.you.role === 'player') game.room = msg.code;
          if (!ours(msg)) return;
          const seat = msg.you.seat;
          const hosting = seat !== undefined && msg.seats[seat] && msg.seats[seat].host;
          const alone = !msg.seats.some((s, i) => s && i !== seat);
          if (game.challengeRoom !== null && msg.status === 'waiting' && alone) {
            // The challenger gave their seat up before the start (one
            // merely away keeps it): this room is nobody's game; leave it
            // and wait for another.
            game.log(`the challenger left room ${game.room}; waiting for another challenge`);
            send({ type: 'leave', give_up: true });
            game.room = null;
            game.challengeRoom = null;
            return;
          }
          if (msg.status !== 'waiting') { game.challengeRoom = null; game.started = true; return; }
          if (game.create && hosting) {
            // Invitations first, once: the invitees take seats the bots leave free.
            while (game.invite.length) game.inviteIds.add(send({ type: 'invite', player_id: game.invite.shift() }));
            if (game.bots.length && msg.seats.includes(null)) send({ type: 'add_bot', level: game.bots.shift() });
            else if (!msg.seats.includes(null) && !game.started) { game.started = true; send({ type: 'start' }); }
          }
          return;
        }
        case 'state': {
          if (!ours(msg)) return;
          let full = msg;
          if (msg.lean) full = expandLean(msg, game.catalogue, game.lastFull);
          else game.lastFull = msg;
          const state = withHelpers(full);
          game.version = state.version;
          game.myTurn = state.myTurn;
          if (!state.myTurn) return;
          let action;
          if (game.refused) {
            game.refused = false;
            action = state.legal_actions[0];
          } else {
            try { action = game.choose(state); } catch (e) {
              game.log(`choose() failed (${e.message}); playing the first legal action`);
              action = state.legal_actions[0];
            }
            if (action === RESIGN) {
              game.log('resigning (R13)');
              game.actId = send({ type: 'resign' });
              return;
            }
            if (JSON.stringify(action) === undefined) {
              game.log(`choose() returned ${String(action)}, which is not JSON; playing the first legal action`);
              action = state.legal_actions[0];
            }
            // An illegal move is sent all the same: the server's refusal
            // says which rule it breaks, and the bot is told (below).
          }
          game.actId = send({ type: 'act', action, expect_version: state.version });
          return;
        }
        case 'result':
          if (ours(msg)) finish({ result: { ...msg, refused: game.refusedMoves } });
          return;
        case 'error':
          if (msg.code === 'rate_limited') {
            rateLimited(msg);
          } else if (msg.id !== undefined && game.inviteIds.has(msg.id)) {
            // Nobody would come to the seat: say so rather than wait.
            finish({ fatal: new KitError(`invite: ${msg.code}: ${msg.message}`) });
          } else if (msg.code === 'invalid_token') {
            game.token = null;
            send(identify());
          } else if (msg.code === 'name_taken') {
            // Programs' names are unique (issue 24): a name of the kit's own
            // making is made again; a given one is the author's to change.
            if (game.nameGiven) {
              finish({ fatal: new KitError(`name_taken: ${msg.message} (set SPLENDOR_BOT_NAME or options.name)`) });
              return;
            }
            // A resumed session keeps its token (its identity and rating):
            // the new name goes with it.
            game.name = defaultName();
            send(identify({ name: game.name }));
          } else if (game.challengeRoom !== null && msg.id === game.entryId
            && ['room_not_found', 'room_full', 'game_already_started', 'room_closed'].includes(msg.code)) {
            // The challenge's room went on without us: wait for another.
            game.log(`challenge room ${game.room}: ${msg.code}; waiting for another challenge`);
            game.room = null;
            game.challengeRoom = null;
          } else if (msg.code === 'already_queued' && msg.id === game.queueId) {
            // Queued from an earlier connection of this session: wait on.
          } else if (msg.code === 'too_many_games' && msg.id === game.queueId) {
            // The ladder's caps (issue 24): this owner's (or this address's)
            // bots play as many games as the server allows; ask again when it says.
            const wait = typeof msg.retry_after_ms === 'number' && msg.retry_after_ms >= 0
              ? Math.min(300000, msg.retry_after_ms) : 15000;
            game.log(`too_many_games: queueing again in ${Math.round(wait / 1000)} s`);
            setTimeout(() => { if (!done && game.room === null) enter(); }, Math.max(wait, 50));
          } else if (msg.code === 'already_in_room' && msg.id === game.entryId) {
            // The session still sits in an earlier game: leave it (the seat
            // there stays its own), then try again.
            game.log('leaving an earlier room to play this one');
            if (game.createId === game.entryId) game.createId = null;
            send({ type: 'leave' });
            enter();
          } else if (msg.id !== undefined && msg.id === game.actId && !['stale_version', 'stand_in_turn'].includes(msg.code)) {
            game.refusedMoves += 1;
            game.log(`move refused (${msg.code}${msg.rule ? `, ${msg.rule}` : ''}: ${msg.message}); playing the first legal action`);
            if (game.onRefused) {
              try { game.onRefused(msg); } catch (e) { game.log(`onRefused() failed: ${e.message}`); }
            }
            game.refused = true;
            send({ type: 'sync' });
          } else if (['room_not_found', 'room_full', 'game_already_started', 'invalid_name', 'banned'].includes(msg.code)) {
            finish({ fatal: new KitError(`${msg.code}: ${msg.message}`) });
          } else {
            game.log(`${msg.code}: ${msg.message}`);
          }
          return;
        default:
      }
    });
  });
}

/**
 * play() `games` times in a row (options.games or SPLENDOR_GAMES, default 1;
 * in quick play, each a new rated game): for scripts. Resolves with the last
 * result; a failure (a declined challenge, a name taken, ...) is logged, sets
 * the exit code to 1 and rejects with its KitError, as play() does and the
 * Python kit's run() raises (issue 51: it resolved null).
 */
async function run(choose, options = {}) {
  const ladder = Number(options.ladder || process.env.SPLENDOR_LADDER || 0) || null;
  // The ladder plays for ever unless told how many games.
  const games = Number(options.games || process.env.SPLENDOR_GAMES || 0) || (ladder ? Infinity : 1);
  const session = options.session || {};
  const settings = ladder ? { ...options, queue: ladder } : options;
  let result = null;
  try {
    for (let i = 0; i < games; i += 1) {
      result = await play(choose, { ...settings, session });
      const mine = result.ranking.find((r) => r.name === session.name);
      // How it ended when not on points (R11.6's no_progress, R12.6's
      // deserted, R13.2's resigned, R11.2's deadlock; issue 51).
      const how = result.end && result.end !== 'points' ? ` (ended: ${result.end})` : '';
      console.error(`splendor-kit: game ${i + 1}${games === Infinity ? '' : ` of ${games}`} over${mine ? `, place ${mine.rank}` : ''}${how}`);
    }
  } catch (e) {
    console.error(`splendor-kit: ${e.message}`);
    process.exitCode = 1;
    throw e;
  }
  return result;
}

module.exports = {
  play, run, myGames, invitations, declineInvitation, botsOnline, catalogue, expandLean,
  KitError, actionKey, isLegal, TOKENS, RESIGN, DECLINE_REASONS,
};
