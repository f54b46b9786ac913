// A first bot: buy the most valuable card it can, else take three tokens.
//
//   cargo run --release -p splendor-server &
//   (cd clients/node && npm install)
//   node clients/node/examples/template_bot.js
//
// In the arena:
//   splendor-arena greedy --bot "mine=node clients/node/examples/template_bot.js"
'use strict';

const kit = require('..');

function choose(state) {
  const legal = state.legal_actions;
  const cards = new Map();
  for (const level of state.levels) for (const c of level.cards) if (c) cards.set(c.id, c);
  for (const r of state.me.reserved) if (r.card) cards.set(r.card.id, r.card);
  const cardOf = (a) => cards.get(typeof a.buy === 'number' ? a.buy : a.buy.card);
  const buys = legal.filter((a) => typeof a === 'object' && 'buy' in a);
  if (buys.length) return buys.reduce((best, a) => ((cardOf(a)?.points ?? 0) > (cardOf(best)?.points ?? 0) ? a : best));
  const take = legal.find((a) => typeof a === 'object' && a.take && a.take.length === 3);
  return take || legal[0];
}

kit.run(choose).then((result) => {
  if (!result) return;
  console.log('winners:', result.winners.join(', '), `(ended: ${result.end || (result.deadlock ? 'deadlock' : 'points')})`);
  for (const r of result.ranking) console.log(`${r.rank}. ${r.name}: ${r.points} points`);
});
