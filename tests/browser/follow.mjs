// The page follows its room to the node that runs it (issue 44), in
// Debian's Chromium, against two server nodes behind the real HAProxy:
//
//   node tests/browser/follow.mjs PROXY_URL NODE1_URL NODE2_URL
//
// `cargo test --test cluster_proxy the_page_follows` starts the cluster,
// holds three idle WebSockets through the proxy on node 1 (so that the
// proxy's least-connections balancing sends the next page to node 2), and
// runs this. Ann's page is served by node 1 itself and creates the room
// there; Bob's page comes through the proxy by the room's link, lands on
// node 2, sees that the room runs on node 1, reconnects asking for it and
// keeps his seat; the two play the game on node 1 to the end.

import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSuite, step } from './harness.mjs';
import { SEL, firstToAct, playUntil, signIn } from './table.mjs';

const [proxyUrl, node1, node2] = process.argv.slice(2);
if (!proxyUrl || !node1 || !node2) {
  console.error('usage: node tests/browser/follow.mjs PROXY_URL NODE1_URL NODE2_URL');
  process.exit(2);
}

/// How many WebSockets a node holds, from its own /metrics.
async function sockets(nodeUrl) {
  const text = await (await fetch(`${nodeUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('splendor_connections '));
  assert.ok(line, `${nodeUrl}/metrics has splendor_connections`);
  return Number(line.split(' ')[1]);
}

const STEPS = [
  step('Ann opens node 1 itself and creates a room for two', async (run) => {
    const ann = await run.openPlayer('Ann', { width: 1280, height: 900 });
    await signIn(ann, `${node1}/`);
    const { page } = ann;
    assert.equal(await page.evaluate(() => S.node), 1, 'Ann is on node 1');
    await page.locator(SEL.seats).selectOption('2');
    await page.locator(SEL.create).click();
    await page.locator(SEL.room).waitFor({ state: 'visible' });
    run.shared.code = (await page.locator(SEL.roomCode).textContent()).trim();
    assert.equal(await page.evaluate(() => S.room.node), 1, 'the room runs on node 1');
    run.shared.before = { one: await sockets(node1), two: await sockets(node2) };
  }),

  step('Bob comes by the link through the proxy, lands on node 2 and follows the room to node 1', async (run) => {
    const bob = await run.openPlayer('Bob', { width: 1280, height: 900 });
    const { page } = bob;
    // Every WebSocket the page opens, in order.
    const sockets_ = [];
    page.on('websocket', (ws) => sockets_.push(ws.url()));
    await signIn(bob, `${proxyUrl}/#${run.shared.code}`);
    await page.locator(SEL.room).waitFor({ state: 'visible' });
    // Seated on the node that runs the room, through the proxy.
    await page.waitForFunction(() => S.node === 1 && S.room && S.room.you.role === 'player');
    assert.equal((await page.locator(SEL.roomCode).textContent()).trim(), run.shared.code, 'in the room of the link');
    assert.equal(sockets_.length, 2, `one connection and one reconnection: ${sockets_.join(', ')}`);
    assert.ok(!sockets_[0].includes('node='), `the first asks for no node: ${sockets_[0]}`);
    assert.ok(sockets_[1].endsWith('/ws?node=1'), `the second asks for node 1: ${sockets_[1]}`);
    // Node 1 holds Bob's connection now, node 2 none of his.
    const one = await sockets(node1);
    const two = await sockets(node2);
    assert.equal(one, run.shared.before.one + 1, 'node 1 holds Bob');
    assert.equal(two, run.shared.before.two, 'node 2 let Bob go');
    await run.player('Ann').page.locator(`${SEL.start}:enabled`).waitFor();
  }),

  step('Ann starts and the two play the game to the end on node 1', async (run) => {
    const { page } = run.player('Ann');
    await page.locator(SEL.seatOrder).selectOption('joined');
    await page.locator(SEL.start).click();
    run.shared.actor = await firstToAct(run.players);
    run.shared.moves = 0;
    const over = await playUntil(run, async () => false);
    assert.ok(over, 'the game ended');
    // Nobody followed again: still one reconnection.
    assert.equal(await run.player('Bob').page.evaluate(() => S.node), 1);
  }),
];

const here = path.dirname(fileURLToPath(import.meta.url));
const code = await runSuite(STEPS, {
  baseUrl: proxyUrl,
  chromiumPath: process.env.SPLENDOR_CHROMIUM || '/usr/bin/chromium',
  shotsDir: process.env.SPLENDOR_BROWSER_SCREENSHOTS || path.resolve(here, '../../target/browser-screenshots-follow'),
});
process.exit(code);
