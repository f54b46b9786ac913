// Motion, as on a real table (issue 50): the other players' moves are
// seen, not only read. A card bought or reserved flies from the row (or a
// reserve) to its player, tokens move between the supply and the players,
// a new card slides into the gap, a noble visits. Each flight is a copy
// of the thing, fixed above the page, that goes where the thing went and
// disappears: nothing on the page moves, so no layout shifts, and the
// copy takes no input (inert, no pointer events), so play goes on while it
// flies. Under 400 ms; none when the system asks for reduced motion. The
// player's own moves are not animated (they made them). Loaded after
// table.js and before app.js, whose `events` and render call it.
'use strict';

const MOTION_MS = 350;

// What was animated, for the browser suite: flights played, and moves
// that would have been animated but reduced motion was asked for.
const MOTION = { played: 0, skipped: 0, pending: null };

function reducedMotion() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function cardId(card) {
  return card && typeof card === 'object' ? card.id : card;
}

// A copy of `node` where it stands now, to fly later.
function snapshot(node) {
  if (!node) return null;
  const rect = node.getBoundingClientRect();
  if (!rect.width || !rect.height) return null;
  return { rect, copy: node.cloneNode(true) };
}

// The panel of the player in `seat`, drawn now.
function seatPanel(seat) {
  return document.querySelector(`#players .player[data-seat="${seat}"]`);
}

function supplyToken(color) {
  return document.querySelector(`#supply .token.gem-${color}`);
}

// Called when an action's events arrive, before the new state is drawn:
// remembers where what the action moves stands now. Another player's
// action only, and only at a table this page shows.
function motionBefore(version, events) {
  MOTION.pending = null;
  if (!S.state || S.result || !$('game') || $('game').hidden) return;
  // The tutorial's prepared moves are dealt, not played: none flies.
  if (tutorialPreparing()) return;
  const seat = events.map((ev) => ev.seat).find((x) => x !== undefined);
  if (seat === undefined || seat === S.state.you) return;
  const flights = [];
  for (const ev of events) {
    switch (ev.event) {
      case 'bought':
      case 'reserved': {
        const id = cardId(ev.card);
        const from = id !== null && id !== undefined
          ? snapshot(document.querySelector(`#levels .card[data-card="${id}"], #players .card[data-card="${id}"]`))
          : snapshot(document.querySelector(`#levels .deck.level-${ev.level}`));
        if (from) flights.push({ from, to: { seat } });
        if (ev.event === 'reserved' && ev.gold) {
          const gold = snapshot(supplyToken('gold'));
          if (gold) flights.push({ from: gold, to: { seat } });
        }
        if (ev.event === 'bought') {
          for (const c of TOKENS) if (ev.paid && ev.paid[c]) flights.push({ from: { seat }, to: { color: c } });
        }
        break;
      }
      case 'took_tokens':
        for (const c of TOKENS) {
          const from = ev.tokens[c] ? snapshot(supplyToken(c)) : null;
          if (from) flights.push({ from, to: { seat } });
        }
        break;
      case 'returned_tokens':
        for (const c of TOKENS) if (ev.tokens[c]) flights.push({ from: { seat }, to: { color: c } });
        break;
      case 'noble_visited': {
        const from = snapshot(document.querySelector(`#nobles .noble[data-noble="${ev.noble.id}"]`));
        if (from) flights.push({ from, to: { seat } });
        break;
      }
      case 'dealt':
        flights.push({ dealt: cardId(ev.card) });
        break;
      default:
        break;
    }
  }
  if (flights.length) MOTION.pending = { version, flights };
}

// Called after every render: plays the flights of the action whose state
// is now drawn.
function motionAfter() {
  const pending = MOTION.pending;
  if (!pending || !S.state || S.state.version < pending.version) return;
  MOTION.pending = null;
  if (reducedMotion()) {
    MOTION.skipped += 1;
    return;
  }
  for (const flight of pending.flights) {
    if (flight.dealt !== undefined) {
      slideIn(document.querySelector(`#levels .card[data-card="${flight.dealt}"]`));
      continue;
    }
    // A token that goes back to the supply flies from the player's panel
    // as a copy of the supply's token.
    const from = flight.from.rect ? flight.from : snapshotAt(supplyToken(flight.to.color), seatPanel(flight.from.seat));
    const target = flight.to.seat !== undefined ? seatPanel(flight.to.seat) : supplyToken(flight.to.color);
    if (from && target) fly(from, target.getBoundingClientRect());
  }
}

// A copy of `node` standing over `place` (a token leaving a player).
function snapshotAt(node, place) {
  if (!node || !place) return null;
  const at = place.getBoundingClientRect();
  const own = node.getBoundingClientRect();
  return {
    rect: { left: at.left + at.width / 2 - own.width / 2, top: at.top + 8, width: own.width, height: own.height },
    copy: node.cloneNode(true),
  };
}

// Flies `from.copy` from where it stood to the middle of `to`, shrinking.
function fly(from, to) {
  const ghost = from.copy;
  for (const n of [ghost, ...ghost.querySelectorAll('*')]) {
    n.removeAttribute('id');
    n.removeAttribute('data-key');
  }
  ghost.classList.add('flight');
  ghost.inert = true;
  ghost.setAttribute('aria-hidden', 'true');
  Object.assign(ghost.style, {
    position: 'fixed', left: `${from.rect.left}px`, top: `${from.rect.top}px`,
    width: `${from.rect.width}px`, height: `${from.rect.height}px`, margin: '0',
  });
  document.body.append(ghost);
  const dx = to.left + to.width / 2 - (from.rect.left + from.rect.width / 2);
  const dy = to.top + Math.min(to.height, 60) / 2 - (from.rect.top + from.rect.height / 2);
  MOTION.played += 1;
  const flight = ghost.animate([
    { transform: 'translate(0, 0) scale(1)', opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(0.45)`, opacity: 0.35 },
  ], { duration: MOTION_MS, easing: 'cubic-bezier(0.3, 0.7, 0.4, 1)' });
  const done = () => ghost.remove();
  flight.onfinish = done;
  flight.oncancel = done;
}

// A new card slides into its gap (only a transform: nothing else moves).
function slideIn(node) {
  if (!node) return;
  MOTION.played += 1;
  node.animate([
    { transform: 'translateY(-24px)', opacity: 0 },
    { transform: 'translateY(0)', opacity: 1 },
  ], { duration: 300, easing: 'ease-out' });
}
