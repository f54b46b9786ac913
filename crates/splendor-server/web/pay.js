// Paying for a card in the browser client (docs/BROWSER.md): how much gold
// goes to each colour when a card can be paid in more than one way (R7.3).
// Loaded before app.js, which holds the state `S` and calls these when it
// draws the turn panel.
'use strict';

// What buying `card` asks of this seat, per colour due after bonuses: the
// least gold (where its tokens fall short) and the most (R7.3: gold stands
// in for any colour). Bookkeeping on what the state shows; the server
// checks the payment it receives.
function payment(card) {
  const me = S.state.players[S.state.you];
  const gold = me.tokens.gold || 0;
  const rows = [];
  for (const c of COLORS) {
    const due = Math.max(0, (card.cost[c] || 0) - (me.bonuses[c] || 0));
    if (due) rows.push({ c, due, min: Math.max(0, due - (me.tokens[c] || 0)), max: Math.min(due, gold) });
  }
  if (!S.payGold || S.payGold.card !== card.id) {
    S.payGold = { card: card.id, gold: Object.fromEntries(rows.map((r) => [r.c, r.min])) };
  }
  return { gold, rows, chosen: S.payGold.gold };
}

function goldUsed(pay) {
  return pay.rows.reduce((n, r) => n + (pay.chosen[r.c] || 0), 0);
}

// The buy to send: the server's own entry for the usual payment (the
// least gold), else the card with the gold chosen per colour.
function buyAction(card, pay, entry) {
  if (pay.rows.every((r) => (pay.chosen[r.c] || 0) === r.min)) return entry;
  const gold = {};
  for (const r of pay.rows) if (pay.chosen[r.c]) gold[r.c] = pay.chosen[r.c];
  return { buy: { card: card.id, gold } };
}

function paymentChooser(card, pay) {
  const used = goldUsed(pay);
  // data-gold: all the gold this payment uses, the rows without a choice
  // (gold that must stand in where tokens fall short) included.
  const box = el('fieldset', { cls: 'payment', 'data-gold': String(used) }, el('legend', { text: t('pay.legend') }));
  for (const r of pay.rows) {
    if (r.max === r.min) continue;
    const k = pay.chosen[r.c] || 0;
    const change = (d) => () => { S.payGold.gold[r.c] = k + d; render(); };
    box.append(el('div', { cls: 'pay-row' },
      el('span', { cls: `chip gem-${r.c}`, text: countText(r.due, r.c) }),
      el('button', { type: 'button', cls: 'quiet small', text: '−', 'aria-label': t('pay.less', { color: colorName(r.c) }), disabled: k <= r.min, onclick: change(-1) }),
      el('span', { cls: 'pay-gold', 'data-color': r.c, text: countText(k, 'gold') }),
      el('button', { type: 'button', cls: 'quiet small', text: '+', 'aria-label': t('pay.more', { color: colorName(r.c) }), disabled: k >= r.max || used >= pay.gold, onclick: change(1) })));
  }
  const paid = {};
  for (const r of pay.rows) {
    const g = pay.chosen[r.c] || 0;
    if (r.due - g) paid[r.c] = r.due - g;
  }
  if (used) paid.gold = used;
  box.append(el('p', { cls: 'muted', 'aria-live': 'polite', text: t('pay.total', { counts: countsText(paid) }) }));
  return box;
}
