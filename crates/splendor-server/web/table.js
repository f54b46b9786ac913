// The table in the browser client (docs/BROWSER.md): the board (nobles,
// the three levels, the supply), the turn panel that offers this seat's
// legal moves, the players and the result. Loaded before app.js, which
// holds the state `S` and the connection, and calls renderGame() when it
// draws the table; like app.js it knows no rules: every move offered is an
// entry of the server's `legal_actions`, and server text goes into the
// page as text only.
'use strict';

function renderGame() {
  const st = S.state;
  const r = S.room;
  const status = r.status === 'finished' || st.phase === 'game_over' ? t('game.finished') : t('game.turn', { n: st.turn + 1 });
  const head = [t('game.room', { room: st.room }), status];
  if (st.end_triggered && !S.result) head.push(t('game.lastRound'));
  $('game-code').textContent = head.join(' · ');
  $('game-rated').hidden = !r.rated;
  $('leave-game').textContent = S.result || st.you === undefined || iResigned() ? t('game.leave') : t('game.leaveTable');
  const recent = recentMoves();
  const said = recent.map((m) => actionText(m.events, m.by, seatName)).join(' ');
  $('last-move').textContent = !recent.length ? ''
    : t(recent.length > 1 ? 'game.sinceTurn' : 'game.lastMove', { move: said });
  renderNobles();
  renderLevels();
  renderSupply();
  renderTurn();
  renderPlayers();
  renderResult();
  revealChosen();
  const log = $('log');
  log.replaceChildren(...S.log.map((line) => (line.round
    ? el('li', { cls: 'round', text: t('game.round', { n: line.round }) })
    : el('li', { text: actionText([line.ev], line.by, seatName) }))));
  if (!S.log.length) log.append(el('li', { cls: 'muted', text: t('game.logEmpty') }));
}

// What changed since this player's last move (issue 23): the moves after
// it up to the state shown (for a spectator, or right after one's own
// move, the last move alone).
function recentMoves() {
  if (!S.state) return [];
  const moves = S.moves.filter((m) => m.version <= S.state.version);
  if (!moves.length || moves[moves.length - 1].version !== S.state.version) return [];
  const me = S.state.you;
  let start = moves.length - 1;
  if (me !== undefined && moves[start].seat !== me) {
    while (start > 0 && moves[start - 1].seat !== me) start -= 1;
  }
  return moves.slice(start);
}

// The cards, tokens and nobles the recent moves moved, for outlines.
function recentMarks() {
  const marks = { cards: new Set(), tokens: new Map(), nobles: new Set(), seats: new Set() };
  for (const m of recentMoves()) {
    for (const c of m.cards) marks.cards.add(c);
    if (m.seat === undefined) continue;
    marks.seats.add(m.seat);
    if (!marks.tokens.has(m.seat)) marks.tokens.set(m.seat, new Set());
    for (const c of m.tokens) marks.tokens.get(m.seat).add(c);
    if (m.noble) marks.nobles.add(m.seat);
  }
  return marks;
}

// A row of counts as labelled chips: "3 white"; the colours in `fresh`
// (a set, optional) outlined as just taken.
function chips(counts, cls, fresh) {
  const list = TOKENS.filter((c) => counts && counts[c] > 0);
  if (!list.length) return el('span', { cls: 'muted', text: t('none') });
  return el('span', { cls: `chips ${cls || ''}` },
    list.map((c) => el('span', { cls: `chip gem-${c}${fresh && fresh.has(c) ? ' fresh' : ''}`, title: colorName(c) }, gemIcon(c), countText(counts[c], c))));
}

function cardNode(card, opts) {
  const entries = legal().filter((a) => a.buy === card.id || a.reserve === card.id
    || (a.buy && a.buy.card === card.id));
  const playable = entries.length > 0 && !S.pending;
  const buyable = playable && entries.some((a) => a.buy !== undefined);
  const chosen = S.selected && S.selected.card === card.id;
  const hinted = S.hint && S.state && S.hint.version === S.state.version && actionCard(S.hint.action) === card.id;
  const fresh = recentMarks().cards.has(card.id);
  return el(playable ? 'button' : 'div', {
    type: playable ? 'button' : undefined,
    'data-card': card.id,
    'data-key': playable ? `card-${card.id}` : undefined,
    cls: `card band-${card.bonus}${playable ? ' playable' : ''}${buyable ? ' buyable' : ''}${chosen ? ' chosen' : ''}${hinted ? ' preferred' : ''}${fresh ? ' fresh' : ''}${opts && opts.small ? ' small' : ''}`,
    title: cardTitle(card),
    onclick: playable ? () => { S.selected = { card: card.id, info: card }; S.picks = []; S.focusNext = 'confirm-0'; render(); } : undefined,
  },
  el('span', { cls: 'card-top' },
    el('span', { cls: 'points', text: card.points ? String(card.points) : '' }),
    bonusMark(card.bonus)),
  costNode(card.cost, opts && opts.bonuses));
}

// The bonuses of the seat this page plays, or null for a spectator.
function myBonuses() {
  const st = S.state;
  return st && st.you !== undefined ? st.players[st.you].bonuses : null;
}

// A card's cost as chips; for a player, what is left to pay after their
// bonuses follows an arrow ("3 blue →1"): this page's player's, or for a
// card another player reserved, that player's (issue 23).
function costNode(cost, owner) {
  const bonuses = owner || myBonuses();
  return el('span', { cls: 'cost' }, COLORS.filter((c) => cost[c] > 0).map((c) => {
    const net = bonuses ? Math.max(0, cost[c] - (bonuses[c] || 0)) : cost[c];
    if (net === cost[c]) return gemCount(c, cost[c]);
    const count = gemCount(c, cost[c], el('span', { cls: 'net', text: ` →${net}` }));
    count.title = t('card.afterBonuses', { count: countText(cost[c], c), net });
    return count;
  }));
}

function nobleNode(noble, onclick, key) {
  return el(onclick ? 'button' : 'div', {
    type: onclick ? 'button' : undefined,
    'data-key': key,
    'data-noble': noble.id,
    cls: `noble${onclick ? ' playable' : ''}`,
    title: t('noble.title', { points: t('points', { n: noble.points }), counts: countsText(noble.requires) }),
    onclick,
  },
  el('span', { cls: 'points', text: String(noble.points) }),
  costColumn(noble.requires, 'req'));
}

// How many bonuses each player still lacks for `noble` (R9: a noble
// counts bonuses only): "ann 2 · bob ✓".
function nobleProgress(noble) {
  const parts = S.state.players.map((p) => {
    const need = COLORS.reduce((n, c) => n + Math.max(0, (noble.requires[c] || 0) - (p.bonuses[c] || 0)), 0);
    return `${seatName(p.seat)} ${need ? need : '✓'}`;
  });
  return el('span', { cls: 'progress', title: t('noble.progress') }, parts.join(' · '));
}

function renderNobles() {
  const box = $('nobles');
  box.replaceChildren(el('span', { cls: 'label', text: t('label.nobles') }),
    ...S.state.nobles.map((n) => el('div', { cls: 'noble-slot' }, nobleNode(n), nobleProgress(n))));
  if (!S.state.nobles.length) box.append(el('span', { cls: 'muted', text: t('nobles.noneLeft') }));
}

function renderLevels() {
  const box = $('levels');
  box.replaceChildren();
  for (const row of [...S.state.levels].reverse()) {
    const deckAction = findLegal({ reserve_deck: row.level });
    const playable = deckAction && !S.pending;
    const chosen = S.selected && S.selected.level === row.level;
    const deck = el(playable ? 'button' : 'div', {
      type: playable ? 'button' : undefined,
      'data-key': playable ? `deck-${row.level}` : undefined,
      cls: `deck level-${row.level}${playable ? ' playable' : ''}${chosen ? ' chosen' : ''}`,
      title: t('deck.title', { level: row.level, cards: t('cards', { n: row.deck }) }),
      onclick: playable ? () => { S.selected = { level: row.level }; S.picks = []; S.focusNext = 'confirm-0'; render(); } : undefined,
    }, el('span', { cls: 'deck-level', text: t('deck.level', { level: row.level }) }), el('span', { text: t('deck.left', { n: row.deck }) }));
    const cards = row.cards.map((c) => (c ? cardNode(c) : el('div', { cls: 'card empty', text: t('card.empty') })));
    box.append(el('div', { cls: 'level-row' }, deck, ...cards));
  }
}

// Whether clicking colour `c` in the supply can lead to a legal take.
function takeable(c) {
  return legal().some((a) => (a.take && a.take.includes(c)) || a.take_two === c);
}

function pickColor(c) {
  const p = S.picks;
  if (p.length === 1 && p[0] === c) S.picks = [c, c];
  else if (p.includes(c)) S.picks = p.filter((x) => x !== c);
  else if (p.length < 3 && !(p.length === 2 && p[0] === p[1])) S.picks = [...p, c];
  else S.picks = [c];
  S.selected = null;
  // A complete take (legal, and no further colour would make a larger
  // one) moves the focus to Take; otherwise it stays on the token
  // (keyboard play, issue 23).
  const q = S.picks;
  const larger = legal().some((a) => a.take && a.take.length > q.length && q.every((x) => a.take.includes(x)));
  if (findLegal(pickedAction()) && !larger) S.focusNext = 'confirm-take';
  render();
}

// The take the picked colours describe, as an action.
function pickedAction() {
  const p = S.picks;
  if (p.length === 2 && p[0] === p[1]) return { take_two: p[0] };
  return { take: p };
}

function renderSupply() {
  const box = $('supply');
  box.replaceChildren(el('span', { cls: 'label', text: t('label.tokens') }));
  const mainTurn = S.state.phase === 'main' && legal().length > 0;
  for (const c of TOKENS) {
    const n = S.state.supply[c] || 0;
    const can = mainTurn && !S.pending && takeable(c);
    const picked = S.picks.filter((x) => x === c).length;
    box.append(el(can ? 'button' : 'div', {
      type: can ? 'button' : undefined,
      'data-key': can ? `token-${c}` : undefined,
      'aria-pressed': can ? String(picked > 0) : undefined,
      cls: `token gem-${c}${can ? ' playable' : ''}${picked ? ' chosen' : ''}`,
      title: t('supply.title', { count: countText(n, c) }),
      onclick: can ? () => pickColor(c) : undefined,
    }, gemIcon(c), el('span', { cls: 'token-n', text: String(n) }), el('span', { text: colorName(c) }),
    picked ? el('span', { cls: 'badge', text: `+${picked}` }) : null));
  }
}

// The panel that says whose turn it is and offers this seat's legal moves.
function renderTurn() {
  const st = S.state;
  const box = $('turn');
  box.replaceChildren();
  // The result panel takes over at the end.
  box.hidden = Boolean(S.result) || st.phase === 'game_over';
  if (box.hidden) return;
  const mine = st.you !== undefined && st.to_act === st.you && !iResigned();
  const phase = { return_tokens: 'Return', choose_noble: 'Noble' }[st.phase] || '';
  const who = t(`turn.${mine ? 'mine' : 'other'}${phase}`, { name: seatName(st.to_act) });
  box.append(el('h2', { cls: mine ? 'mine' : '', text: who }));
  if (iResigned()) box.append(el('p', { cls: 'muted', text: t('game.youResigned') }));
  // Your own clock where you play (on a phone the player panels are below).
  const clock = mine && st.clocks ? st.clocks[st.you] : null;
  if (clock) {
    box.append(el('p', { cls: 'turn-clock' }, `${t('turn.timeLeft')} `,
      el('span', { cls: 'clock running', 'data-clock': st.you, role: 'timer', text: clockText(clockNow(clock)) }),
      clock.stand_in ? ` ${t('turn.standInBack')}` : ''));
  }
  if (st.you === undefined) box.append(el('p', { cls: 'muted', text: t('turn.watching') }));
  if (!S.identified) box.append(el('p', { cls: 'muted', text: t('turn.offline') }));
  if (!mine || !legal().length) return;
  if (S.pending) { box.append(el('p', { cls: 'muted', text: t('turn.sending') })); return; }
  if (practiceGame()) box.append(hintRow(st));
  if (st.phase === 'return_tokens') renderReturn(box);
  else if (st.phase === 'choose_noble') renderNobleChoice(box);
  else renderMain(box);
}

// A practice game (issue 26): unrated, and every other seat a built-in bot.
function practiceGame() {
  const r = S.room;
  return Boolean(r) && !r.rated && r.seats.filter((s) => s && !s.bot).length === 1;
}

// Practice hints: the strong player's move for this seat, asked for, and
// said (its card outlined) once it comes.
function hintRow(st) {
  if (S.hint && S.hint.version === st.version) {
    const entry = findLegal(S.hint.action);
    return el('div', { cls: 'buttons' },
      el('p', { id: 'hint-text', cls: 'hint-text', role: 'status', text: t('hint.says', { move: moveText(S.hint.action, st) }) }),
      entry ? el('button', { id: 'hint-play', type: 'button', cls: 'small', text: t('hint.play'), onclick: () => act(entry) }) : null);
  }
  if (S.hintAsked === st.version) return el('p', { cls: 'muted', role: 'status', text: t('hint.thinking') });
  return el('div', { cls: 'buttons' }, el('button', {
    id: 'hint', type: 'button', cls: 'quiet small', text: t('hint.ask'),
    onclick: () => { S.hintAsked = st.version; send({ type: 'hint' }); render(); },
  }));
}

function renderMain(box) {
  if (findLegal('pass')) {
    box.append(el('p', { text: t('move.mustPass') }),
      el('button', { type: 'button', 'data-key': 'confirm-pass', text: t('move.pass'), onclick: () => act('pass') }));
    return;
  }
  if (S.selected) {
    const sel = S.selected;
    // Buy it first (issue 50): the focus goes to the first button, and
    // Enter-Enter on a card the player can buy buys it (docs/BROWSER.md).
    const entries = (sel.card !== undefined
      ? legal().filter((a) => a.buy === sel.card || a.reserve === sel.card || (a.buy && a.buy.card === sel.card))
      : legal().filter((a) => a.reserve_deck === sel.level))
      .sort((x, y) => Number(y.buy !== undefined) - Number(x.buy !== undefined));
    box.append(el('p', { text: sel.card !== undefined
      ? capitalized(t('move.card', { card: cardText(sel.info), cost: countsText(sel.info.cost) }))
      : t('move.deck', { level: sel.level }) }));
    const row = el('div', { cls: 'buttons' });
    const buy = entries.find((a) => a.buy !== undefined);
    const pay = buy && sel.card !== undefined ? payment(sel.info) : null;
    if (pay && pay.rows.some((r) => r.max > r.min)) box.append(paymentChooser(sel.info, pay));
    for (const a of entries) {
      const label = t(a.buy !== undefined ? 'move.buy' : a.reserve !== undefined ? 'move.reserve' : 'move.reserveTop');
      const choose = a === buy && pay ? () => act(buyAction(sel.info, pay, a)) : () => act(a);
      row.append(el('button', { type: 'button', 'data-key': `confirm-${row.children.length}`, text: label, onclick: choose }));
    }
    row.append(el('button', { type: 'button', 'data-key': 'confirm-cancel', cls: 'quiet', text: t('move.cancel'), onclick: () => { S.selected = null; render(); } }));
    box.append(row);
    return;
  }
  if (!S.picks.length) {
    box.append(el('p', { cls: 'muted', text: t('move.hint') }));
    return;
  }
  const action = pickedAction();
  const entry = findLegal(action);
  const counts = {};
  for (const c of S.picks) counts[c] = (counts[c] || 0) + 1;
  box.append(el('p', { text: t('move.takeWhat', { counts: countsText(counts) }) }));
  box.append(el('div', { cls: 'buttons' },
    el('button', { type: 'button', 'data-key': 'confirm-take', text: t('move.take'), disabled: !entry, onclick: () => entry && act(entry) }),
    el('button', { type: 'button', 'data-key': 'confirm-clear', cls: 'quiet', text: t('move.clear'), onclick: () => { S.picks = []; render(); } })));
  if (!entry) box.append(el('p', { cls: 'muted', text: t('move.notLegal') }));
}

function renderReturn(box) {
  const st = S.state;
  const need = st.return_count;
  const held = st.players[st.you].tokens;
  const given = total(S.give);
  box.append(el('p', { text: t('return.prompt', { n: need, chosen: given }) }));
  const row = el('div', { cls: 'chips' });
  for (const c of TOKENS) {
    if (!held[c]) continue;
    const next = { ...S.give, [c]: (S.give[c] || 0) + 1 };
    const can = legal().some((a) => a.return && TOKENS.every((x) => (next[x] || 0) <= (a.return[x] || 0)));
    // Keyboard (issue 23): the focus stays on the colour picked, and
    // moves to the confirm once enough are chosen.
    const done = total(next) === need && Boolean(findLegal({ return: next }));
    row.append(el('button', {
      type: 'button', cls: `token small gem-${c}`, disabled: !can, 'data-key': `return-${c}`,
      title: t('return.one', { color: colorName(c) }),
      // A colour given back to the last goes disabled: the focus moves on
      // to the next colour that can still be given.
      onclick: () => {
        S.give = next;
        if (done) S.focusNext = 'confirm-return';
        else if (held[c] - next[c] === 0) S.focusNext = 'first-move';
        render();
      },
    }, gemIcon(c), countText(held[c] - (S.give[c] || 0), c), S.give[c] ? el('span', { cls: 'badge', text: `−${S.give[c]}` }) : null));
  }
  box.append(row);
  const entry = findLegal({ return: S.give });
  box.append(el('div', { cls: 'buttons' },
    el('button', { type: 'button', 'data-key': 'confirm-return', text: given ? t('return.these', { counts: countsText(S.give) }) : t('return.button'), disabled: !entry, onclick: () => entry && act(entry) }),
    el('button', { type: 'button', 'data-key': 'confirm-clear', cls: 'quiet', text: t('move.clear'), onclick: () => { S.give = {}; S.focusNext = 'first-move'; render(); } })));
}

function renderNobleChoice(box) {
  box.append(el('p', { text: t('noble.choose') }));
  const row = el('div', { cls: 'nobles' });
  for (const a of legal().filter((x) => x.noble !== undefined)) {
    const noble = S.state.noble_choices.find((n) => n.id === a.noble)
      || S.state.nobles.find((n) => n.id === a.noble);
    if (noble) row.append(nobleNode(noble, () => act(a), `noble-${noble.id}`));
    else row.append(el('button', { type: 'button', text: t('noble.fallback', { id: a.noble }), onclick: () => act(a) }));
  }
  box.append(row);
}

function renderPlayers() {
  const st = S.state;
  const box = $('players');
  box.replaceChildren();
  for (const p of st.players) {
    const seat = S.room.seats[p.seat];
    const connected = seat ? seat.connected : true;
    const clock = st.clocks ? st.clocks[p.seat] : null;
    const head = el('div', { cls: 'player-head' },
      el('strong', { text: seatName(p.seat) }),
      p.seat === st.you ? el('span', { cls: 'tag', text: t('tag.you') }) : null,
      st.to_act === p.seat && !S.result ? el('span', { cls: 'tag turn-tag', text: t('tag.toPlay') }) : null,
      st.first_seat === p.seat ? el('span', { cls: 'tag', text: t('tag.first') }) : null,
      connected ? null : el('span', { cls: 'tag away', text: t('tag.away') }),
      (st.resigned || []).includes(p.seat) ? el('span', { cls: 'tag away', text: t('tag.resigned') }) : null,
      botTag(seat),
      clock && clock.stand_in ? el('span', { cls: 'tag away', text: t('tag.standIn'), title: t('tag.standInTitle') }) : null,
      clock && !clock.bot ? el('span', {
        cls: `clock${clock.running ? ' running' : ''}`, 'data-clock': p.seat, role: 'timer',
        text: clockText(clockNow(clock)),
      }) : null,
      el('span', { cls: 'score', text: t('points', { n: p.points }) }),
      seat ? muteButton(S.room, seat) : null,
      ...(seat ? personButtons(S.room, seat) : []));
    const reserved = p.reserved.map((r) => (r.card
      ? cardNode(r.card, { small: true, bonuses: p.bonuses })
      : el('div', { cls: `card small hidden level-${r.level}`, text: t('reserved.hidden', { level: r.level }) })));
    const marks = recentMarks();
    const lastMover = marks.seats.has(p.seat);
    box.append(el('div', { 'data-seat': p.seat, cls: `panel player${st.to_act === p.seat ? ' acting' : ''}${lastMover ? ' last-mover' : ''}` }, head,
      el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.tokensN', { n: total(p.tokens) }) }), chips(p.tokens, '', marks.tokens.get(p.seat))),
      el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.bonuses', { cards: t('cards', { n: p.cards.length }) }) }), chips(p.bonuses)),
      p.nobles.length ? el('div', { cls: `row${marks.nobles.has(p.seat) ? ' fresh' : ''}` }, el('span', { cls: 'label', text: t('label.nobles') }),
        el('span', { text: p.nobles.map((n) => t('points.short', { n: n.points })).join(', ') })) : null,
      reserved.length ? el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.reserved') }),
        el('div', { cls: 'reserved' }, reserved)) : null));
  }
}

// On a phone the turn panel is pinned at the top (issue 23) and grows
// when a card is chosen (its buttons, the payment): the card chosen is
// scrolled back into view below it, never left under it (issue 50).
function revealChosen() {
  const chosen = document.querySelector('#levels .chosen, #players .chosen');
  const turn = $('turn');
  if (!chosen || getComputedStyle(turn).position !== 'sticky') return;
  const below = turn.getBoundingClientRect().bottom + 8;
  const top = chosen.getBoundingClientRect().top;
  if (top < below) window.scrollBy(0, top - below);
}

function renderResult() {
  const box = $('result');
  const res = S.result;
  box.hidden = !res;
  // Over: the turn panel is no longer pinned (the result is what to see).
  $('game').classList.toggle('over', Boolean(res));
  if (!res) return;
  // The first time the result is drawn, its heading takes the focus (and
  // so comes into view): on a phone, who won and Rematch were above the
  // screen while the player looked at the board (issue 50).
  const first = S.resultShown !== res.game;
  S.resultShown = res.game;
  const won = res.winners.map(seatName);
  const heads = ['result.rank', 'result.player', 'result.points', 'result.cards'];
  const table = el('table', {}, el('tr', {}, heads.map((h) => el('th', { scope: 'col', text: t(h) }))),
    res.ranking.map((r) => el('tr', { cls: res.winners.includes(r.seat) ? 'winner' : '' },
      [r.rank, (res.resigned || []).includes(r.seat) ? `${r.name} (${t('tag.resigned')})` : r.name, r.points, r.cards]
        .map((v) => el('td', { text: String(v) })))));
  const reveal = res.reveal;
  const check = el('p', { cls: 'muted', text: t('fair.checking') });
  box.replaceChildren(el('div', {},
    el('h2', { id: 'result-title', 'data-key': 'result-title', tabindex: '-1', text: won.length > 1 ? t('result.shared', { names: won.join(', ') }) : t('result.wins', { name: won[0] }) }),
    rematchNode(),
    endKey(res) ? el('p', { id: 'result-end', text: t(endKey(res)) }) : null,
    // R12.4: the result says how many moves a stand-in made.
    (res.stand_in_actions || []).length
      ? el('p', { cls: 'muted', id: 'stand-in-moves', text: t('result.standIn', { n: res.stand_in_actions.length }) }) : null,
    table,
    el('h3', { text: t('fair.title') }),
    el('p', { cls: 'muted', text: t('fair.text') }),
    el('dl', { cls: 'reveal' },
      el('dt', { text: t('fair.commitment') }), el('dd', { text: reveal.commitment }),
      el('dt', { text: t('fair.seed') }), el('dd', { text: reveal.seed }),
      el('dt', { text: t('fair.salt') }), el('dd', { text: reveal.salt })),
    check,
    el('p', { cls: 'links' },
      el('a', { href: `/games/${encodeURIComponent(res.game)}`, target: '_blank', rel: 'noopener', id: 'replay-link', text: t('links.replay') }),
      ' · ', el('a', { href: '/games', target: '_blank', rel: 'noopener', text: t('nav.pastGames') }),
      ' · ', el('a', { href: `/api/games/${encodeURIComponent(res.game)}/replay`, target: '_blank', rel: 'noopener', text: t('links.json') }))));
  verifyReveal(res, check);
  if (first) {
    // Kept by restoreFocus across the renders that follow; not taken from
    // a field the player is typing in (the chat).
    const typing = document.activeElement && ['INPUT', 'TEXTAREA'].includes(document.activeElement.tagName);
    if (!typing) S.focusNext = 'result-title';
    requestAnimationFrame(() => { const h = $('result-title'); if (h) h.scrollIntoView({ block: 'start' }); });
  }
}

// Checks SHA-256(salt || seed) against the commitment this page saw during
// the game (PROTOCOL.md, `result`). WebCrypto exists on https and localhost only.
async function verifyReveal(res, node) {
  const seen = S.commitment && S.commitment.game === res.game ? S.commitment.value : null;
  if (seen && seen !== res.reveal.commitment) {
    node.textContent = t('fair.otherCommitment');
    return;
  }
  if (!(window.crypto && crypto.subtle)) {
    node.textContent = t('fair.noCrypto');
    return;
  }
  try {
    const hex = await commitmentOf(res.reveal.salt, res.reveal.seed);
    if (hex !== res.reveal.commitment) {
      node.textContent = t('fair.bad');
    } else if (seen) {
      node.textContent = t('fair.okSeen');
    } else {
      node.textContent = t('fair.okLate');
    }
  } catch {
    node.textContent = t('fair.error');
  }
}

// ---- Keyboard play (issue 23) -------------------------------------------------

// The board's controls as rows, top to bottom: each level's deck and
// cards, then the supply's tokens.
function boardRows() {
  const rows = [...document.querySelectorAll('#levels .level-row')]
    .map((row) => [...row.querySelectorAll('button[data-key]')]);
  rows.push([...document.querySelectorAll('#supply button[data-key]')]);
  return rows.filter((row) => row.length);
}

// Arrow keys move between the board's controls: left and right in a row,
// up and down between the rows (the nearest column).
function boardArrows(e) {
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (!step || !e.target.dataset || !e.target.dataset.key) return;
  const rows = boardRows();
  const r = rows.findIndex((row) => row.includes(e.target));
  if (r < 0) return;
  const c = rows[r].indexOf(e.target);
  let next = null;
  if (step[0]) next = rows[r][c + step[0]];
  else {
    const row = rows[r + step[1]];
    if (row) next = row[Math.min(c, row.length - 1)];
  }
  e.preventDefault();
  if (next) next.focus();
}

// The element to focus after a render: the control asked for (a confirm
// after a complete pick), else the one that had the focus (drawing the
// table again must not drop it to the page body), else at the start of
// this player's turn the first token.
function restoreFocus(key) {
  const asked = S.focusNext;
  S.focusNext = null;
  if (asked === 'first-move') {
    // A decision first (tokens to return, a noble to choose), else the
    // first token of the supply.
    const decision = document.querySelector('#turn [data-key^="return-"]:not([disabled]), #turn [data-key^="noble-"]');
    const first = decision ? [decision] : boardRows().pop();
    if (!first || !first.length) return;
    if (!decision && document.activeElement && document.activeElement !== document.body) return;
    first[0].focus({ preventScroll: true });
    return;
  }
  for (const want of [asked, key]) {
    const node = want && document.querySelector(`[data-key="${want}"]`);
    if (node && !node.disabled) {
      if (node !== document.activeElement) node.focus({ preventScroll: true });
      return;
    }
  }
}
