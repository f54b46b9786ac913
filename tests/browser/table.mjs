// How a player uses the page: signing in, rooms, and moves chosen by reading
// the page's DOM (never the page's script state), made by clicking what the
// page offers. Elements are found by id, attribute and structure, never by
// their English text (the page is being translated). Every selector the
// suite depends on is in SEL, so a change of the page is a change here.

import assert from 'node:assert/strict';
import { WAIT_MS } from './harness.mjs';

export const SEL = {
  // Screens (sections shown one at a time through `hidden`).
  login: '#login',
  lobby: '#lobby',
  room: '#room',
  game: '#game',
  // Sign-in, lobby and waiting room.
  name: '#name',
  signIn: '#login-form button[type=submit]',
  who: '#who',
  seats: '#seats',
  create: '#create-form button[type=submit]',
  joinCode: '#code',
  joinAsPlayer: '#join-form button[type=submit][value=player]',
  roomCode: '#room-code',
  seatOrder: '#seat-order',
  start: '#start',
  // The table.
  turn: '#turn',
  turnHeading: '#turn h2',
  // The heading of the turn panel says it is this page's turn.
  yourTurn: '.mine',
  // What the page offers to click for a move (none while one is on its way).
  // Other buttons beside the table (chat, mute) are not moves.
  controls: '#turn button, #supply button.token, #levels button.card, #levels button.deck, #players button.card',
  supplyToken: '#supply button.token',
  picked: '.chosen',
  // Face-up cards and one's own reserved cards that a move can use.
  card: '#levels button.card, #players button.card',
  buyable: '.buyable',
  points: '.points',
  deck: '#levels button.deck',
  // The buttons of a choice in the turn panel (take, buy, reserve, return),
  // without the quiet ones (clear, cancel). Reserve entries come before buy
  // entries in `legal_actions`, and the page keeps that order.
  choice: '#turn .buttons button:not(.quiet)',
  pass: '#turn > button',
  nobleChoice: '#turn .nobles button',
  returnToken: '#turn .chips button.token',
  // The panel of the player to act; its first row shows the tokens held,
  // as chips ("3 white") of a class per colour.
  actingRow: '#players .player.acting > .row',
  chip: '.chip',
  goldChip: '.gem-gold',
  supplyGold: '#supply .gem-gold .token-n',
  // The gold payment chooser of a buy: per colour, a row with a button for
  // less gold, the gold chosen (data-color) and a button for more.
  payment: '#turn fieldset.payment',
  goldChosen: '#turn .payment .pay-gold',
  payment: '#turn .payment',
  moreGold: '#turn .payment .pay-row button:last-of-type',
  log: '#log li:not(.muted)',
  result: '#result',
  resultRows: '#result table tr',
  toast: '#toast',
  // Chat (beside the table) and the tab's icon, which shows whose turn it is.
  chatText: '#chat-text',
  chatSend: '#chat-form button[type=submit]',
  chatLines: '#chat-log li:not(.muted)',
  icon: 'link[rel="icon"]',
  // The result panel and what follows it.
  rematch: '#rematch',
  replayLink: '#replay-link',
  // The replay pages (/games/{id} and /games).
  replayViewer: '#viewer',
  replayStep: '#step',
  replayNext: '#next',
  replayPrev: '#prev',
  replayLast: '#last',
  // The analysis on the replay page (issue 26).
  analyse: '#analyse',
  analysisChart: '#analysis .chart svg',
  analysisLines: '#analysis .chart .line',
  analysisFigures: '#analysis .figures tr',
  analysisMove: '#analysis-move',
  analysisNotable: '#analysis .notable button',
  pastGames: '#nav-games',
  gameList: '#games',
  // Quick play (the lobby) and the leaderboard page (/leaderboard).
  queuePlayers: '#queue-players',
  queueButton: '#queue-button',
  queueBots: '#queue-bots',
  queueBox: '#queue-box',
  unqueue: '#unqueue',
  queued: '#quick-play[data-queued=true]',
  queueText: '#queue-text',
  myId: '#my-id',
  ratedTag: '#game-rated',
  leaderboardLink: '#leaderboard',
  board: '#board',
  boardRows: '#board tbody tr[data-row]',
  boardEmpty: '#board-empty',
  boardBots: '#kind-bots',
  boardHumans: '#kind-humans',
  provisional: '.tag.provisional',
  playerView: '#player',
  // Identity on every device (issue 23): the lobby's panel and the sign-in.
  identity: '#identity > summary',
  deviceRows: '#id-devices li',
  makeLink: '#id-link',
  linkUrl: '#id-link-url',
  idLogin: '#id-login',
  idPassword: '#id-password',
  idPasswordSave: '#id-password-save',
  idPasswordState: '#id-password-state',
  addPasskey: '#id-passkey-add',
  passkeyRows: '#id-passkeys li',
  signInOpen: '#signin > summary',
  signInLogin: '#signin-login',
  signInPassword: '#signin-password',
  signInButton: '#signin-form button[type=submit]',
  signInPasskey: '#signin-passkey',
  recentRows: '#recent tbody tr',
};

/// Loads `url` and signs in as `player.name`; returns once the lobby shows.
export async function signIn(player, url) {
  const page = player.page;
  await page.goto(url);
  await page.locator(SEL.login).waitFor({ state: 'visible' });
  await page.locator(SEL.name).fill(player.name);
  await page.locator(SEL.signIn).click();
  // The lobby, or straight the room of the link (issue 23).
  await page.waitForFunction(([lobby, room]) => [lobby, room].some((sel) => {
    const node = document.querySelector(sel);
    return node && !node.hidden;
  }), [SEL.lobby, SEL.room]);
  assert.equal(await page.locator(SEL.who).textContent(), player.name, 'the header names the player');
}

/// Where a page is, read from its DOM: 'none' (no table on screen), 'busy'
/// (this page's turn, nothing offered yet: a move is on its way), 'mine'
/// (moves offered), 'theirs' (another seat's turn), 'over' (the result).
/// With `wanted`, the status if it is one of them, otherwise false (for
/// waitForFunction). Runs in the page.
function statusIn({ sel, wanted }) {
  const status = (() => {
    const game = document.querySelector(sel.game);
    if (!game || game.hidden) return 'none';
    const result = document.querySelector(sel.result);
    if (result && !result.hidden) return 'over';
    const heading = document.querySelector(sel.turnHeading);
    if (!heading) return 'none';
    if (!heading.matches(sel.yourTurn)) return 'theirs';
    return document.querySelector(sel.controls) ? 'mine' : 'busy';
  })();
  if (!wanted) return status;
  return wanted.includes(status) ? status : false;
}

export async function status(player) {
  return player.page.evaluate(statusIn, { sel: SEL, wanted: null });
}

/// Waits until `player`'s page is in one of the `wanted` statuses; returns it.
export async function waitStatus(player, wanted) {
  try {
    const handle = await player.page.waitForFunction(statusIn, { sel: SEL, wanted }, { timeout: WAIT_MS });
    return await handle.jsonValue();
  } catch (err) {
    const now = await status(player).catch(() => 'unknown');
    throw new Error(`${player.name}'s page did not reach ${wanted.join(' or ')} (it is ${now}): ${err.message.split('\n')[0]}`);
  }
}

/// The move log as shown, newest first.
export async function logLines(player) {
  return player.page.locator(SEL.log).allTextContents();
}

/// Fails if the page shows a notice (the page shows server errors so).
async function noToast(player) {
  const toast = player.page.locator(SEL.toast);
  if (await toast.isVisible()) {
    throw new Error(`${player.name}'s page shows a notice: ${await toast.textContent()}`);
  }
}

/// The tokens the acting player holds: { all, gold }, from its token chips.
async function tokensHeld(page) {
  return page.evaluate((sel) => {
    const row = document.querySelector(sel.actingRow);
    const held = { all: 0, gold: 0 };
    for (const chip of row ? row.querySelectorAll(sel.chip) : []) {
      const n = parseInt(chip.textContent, 10) || 0;
      held.all += n;
      if (chip.matches(sel.goldChip)) held.gold += n;
    }
    return held;
  }, SEL);
}

/// A number shown in the first element `selector` finds (0 if none).
async function numberIn(page, selector) {
  const node = page.locator(selector).first();
  return (await node.count()) ? parseInt(await node.textContent(), 10) || 0 : 0;
}

/// The sum of the numbers shown in the elements `selector` finds.
async function sumIn(page, selector) {
  const texts = await page.locator(selector).allTextContents();
  return texts.reduce((n, text) => n + (parseInt(text, 10) || 0), 0);
}

/// The index (among SEL.card) of the card worth most points that `filter`
/// accepts ('buyable' or 'reservable'), or -1.
async function bestCard(page, filter) {
  return page.evaluate(({ sel, filter }) => {
    let best = -1;
    let bestPoints = -1;
    document.querySelectorAll(sel.card).forEach((node, i) => {
      const buyable = node.matches(sel.buyable);
      if ((filter === 'buyable') !== buyable) return;
      const points = parseInt(node.querySelector(sel.points)?.textContent || '0', 10) || 0;
      if (points > bestPoints) { best = i; bestPoints = points; }
    });
    return best;
  }, { sel: SEL, filter });
}

/// Whether the first choice button (take, return) is enabled.
async function choiceEnabled(page) {
  const button = page.locator(SEL.choice).first();
  return (await button.count()) > 0 && button.isEnabled();
}

/// Plays one move for `player`, whose page offers moves now. The choice:
/// buy the card worth most points if one can be bought; holding 8 tokens
/// or more, reserve (for the gold); take three (or as many as there are)
/// different colours; take two of one colour; reserve anything; pass. The
/// decisions (return tokens, a noble) take the first thing offered.
/// With `hoardGold` the player buys nothing and reserves whenever it holds
/// no gold: gold and tokens pile up until a card can be bought with gold to
/// spare, which is when the page offers a choice of payment.
/// Returns what it did, for the suite's output.
export async function playMove(player, { hoardGold = false } = {}) {
  const page = player.page;
  if (await page.locator(SEL.pass).count()) {
    await page.locator(SEL.pass).click();
    return 'pass';
  }
  if (await page.locator(SEL.nobleChoice).count()) {
    await page.locator(SEL.nobleChoice).first().click();
    return 'noble';
  }
  if (await page.locator(SEL.returnToken).count()) {
    for (let i = 0; i < 12; i += 1) {
      if (await choiceEnabled(page)) {
        await page.locator(SEL.choice).first().click();
        return 'return';
      }
      const enabled = page.locator(`${SEL.returnToken}:not([disabled])`);
      if (!(await enabled.count())) break;
      await enabled.first().click();
    }
    throw new Error(`${player.name}: no way found to return tokens`);
  }

  const buy = hoardGold ? -1 : await bestCard(page, 'buyable');
  if (buy >= 0) {
    await page.locator(SEL.card).nth(buy).click();
    // Buy it comes first, before Reserve it (issue 50).
    await page.locator(SEL.choice).first().click();
    return 'buy';
  }
  const held = await tokensHeld(page);
  if ((held.all >= 8 || (hoardGold && !held.gold)) && (await reserve(page))) return 'reserve';
  if (await takeDifferent(page)) return 'take';
  if (await takeTwo(page)) return 'take two';
  if (await reserve(page)) return 'reserve';
  throw new Error(`${player.name}: the page offers no move this suite knows how to make`);
}

/// Picks as many different colours as are offered (at most three) and takes
/// them if that is a legal take.
async function takeDifferent(page) {
  for (let n = 0; n < 3; n += 1) {
    const free = page.locator(`${SEL.supplyToken}:not(${SEL.picked})`);
    if (!(await free.count())) break;
    await free.first().click();
  }
  if (await page.locator(`${SEL.supplyToken}${SEL.picked}`).count() && await choiceEnabled(page)) {
    await page.locator(SEL.choice).first().click();
    return true;
  }
  await clearPicks(page);
  return false;
}

/// Takes two tokens of the first colour where that is legal.
async function takeTwo(page) {
  const count = await page.locator(SEL.supplyToken).count();
  for (let i = 0; i < count; i += 1) {
    const token = page.locator(SEL.supplyToken).nth(i);
    await token.click();
    await token.click();
    if (await choiceEnabled(page)) {
      await page.locator(SEL.choice).first().click();
      return true;
    }
    await clearPicks(page);
  }
  return false;
}

/// Unpicks every picked colour (a picked colour clicked again is unpicked).
async function clearPicks(page) {
  for (let i = 0; i < 6; i += 1) {
    const picked = page.locator(`${SEL.supplyToken}${SEL.picked}`);
    if (!(await picked.count())) return;
    await picked.first().click();
  }
}

/// Reserves the face-up card worth most points, else the top of a deck.
async function reserve(page) {
  const card = await bestCard(page, 'reservable');
  if (card >= 0) {
    await page.locator(SEL.card).nth(card).click();
  } else if (await page.locator(SEL.deck).count()) {
    await page.locator(SEL.deck).first().click();
  } else {
    return false;
  }
  // A card that cannot be bought has one choice: reserving it.
  await page.locator(SEL.choice).first().click();
  return true;
}

/// Waits until one of the two players may move (after the start or a
/// reload, when nobody moves meanwhile) and returns that player, or null
/// when the game is over.
export async function firstToAct(players) {
  const statuses = [];
  for (const p of players) statuses.push(await waitStatus(p, ['mine', 'theirs', 'over']));
  if (statuses.includes('over')) return null;
  const i = statuses.indexOf('mine');
  assert.ok(i >= 0, `one player's page offers moves (${statuses.join(', ')})`);
  assert.equal(statuses.filter((s) => s === 'mine').length, 1, 'only one page offers moves');
  return players[i];
}

/// Plays moves through two players' pages (`players`, by default the first
/// two of the run), each moving when its page offers moves, until
/// `done({ actor, moves })` (maybe async) says so before a move (the actor
/// then has moves offered) or the game is over; `policy` goes to playMove.
/// Keeps whose turn it is and the number of moves played in `game`
/// (`{ actor, moves }`, by default `run.shared`). Returns whether the game
/// is over.
export async function playUntil(run, done, {
  maxMoves = 500, policy = {}, players = run.players.slice(0, 2), game = run.shared,
} = {}) {
  const [a, b] = players;
  let actor = game.actor;
  assert.ok(actor, 'someone is to act (the game was started)');
  let s = await waitStatus(actor, ['mine', 'theirs', 'over']);
  for (;;) {
    if (s === 'theirs') {
      // This page's latest state gives the turn to the other player, whose
      // page offers moves once its own state arrives.
      actor = actor === a ? b : a;
      s = await waitStatus(actor, ['mine', 'over']);
    }
    game.actor = actor;
    if (s === 'over') return true;
    await noToast(actor);
    if (await done({ actor, moves: game.moves })) return false;
    if (game.moves >= maxMoves) throw new Error(`neither the end of the game nor what the step waits for came within ${maxMoves} moves`);
    const what = await playMove(actor, policy);
    game.moves += 1;
    if (game.moves % 10 === 0) console.log(`  move ${game.moves}: ${actor.name} (${what})`);
    // The page shows the move as on its way at once; its next state says
    // whose turn it is.
    s = await waitStatus(actor, ['mine', 'theirs', 'over']);
  }
}

/// Whether a card `player` can buy now offers a choice of gold payment: it
/// clicks the buyable cards one by one and leaves the first that does
/// selected, with the payment chooser on screen.
export async function offersGoldChoice(player) {
  const page = player.page;
  const cards = page.locator(SEL.card);
  const n = await cards.count();
  for (let i = 0; i < n; i += 1) {
    const card = cards.nth(i);
    if (!(await card.evaluate((node, buyable) => node.matches(buyable), SEL.buyable))) continue;
    await card.click();
    if (await page.locator(`${SEL.moreGold}:enabled`).count()) return true;
  }
  return false;
}

/// All the gold the payment on screen uses: the rows with a choice and the
/// gold that must stand in where tokens fall short (rows not shown).
async function paymentGold(page) {
  return parseInt(await page.locator(SEL.payment).first().getAttribute('data-gold'), 10);
}

/// With a payment chooser on screen: one more gold than the usual payment,
/// then buy. Checks that the supply gets back exactly the gold chosen.
export async function buyWithMoreGold(run, player) {
  const page = player.page;
  const supplyBefore = await numberIn(page, SEL.supplyGold);
  const usual = await paymentGold(page);
  const shown = await sumIn(page, SEL.goldChosen);
  await page.locator(`${SEL.moreGold}:enabled`).first().click();
  assert.equal(await sumIn(page, SEL.goldChosen), shown + 1, 'the chooser shows one more gold');
  const chosen = await paymentGold(page);
  assert.equal(chosen, usual + 1, 'the payment uses one more gold');
  // Buy it comes first, before Reserve it (issue 50).
  await page.locator(SEL.choice).first().click();
  run.shared.moves += 1;
  await waitStatus(player, ['mine', 'theirs', 'over']);
  await noToast(player);
  assert.equal(await numberIn(page, SEL.supplyGold), supplyBefore + chosen,
    `the buy paid the ${chosen} gold chosen (the usual payment: ${usual})`);
  return { usual, chosen };
}
