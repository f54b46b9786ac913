// Accessibility: axe-core (from npm) run on what a page shows now. Serious
// and critical violations fail the run; every violation is printed with the
// selectors of the nodes concerned and the rule's help address.

import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/// The impacts that fail the run.
const FAILING = new Set(['serious', 'critical']);

/// Runs axe on `page` as it is now; `label` names the screen (the lobby,
/// the table, ...). Serious or critical violations are recorded as the
/// run's problems; the run goes on, so that one run reports every screen.
export async function checkAccessibility(run, page, label) {
  // The page's Content-Security-Policy forbids inline scripts, which
  // `addScriptTag` would add; evaluating through the DevTools protocol is
  // not subject to it, so the page is checked with its CSP in force.
  const loaded = await page.evaluate(`${AXE_SOURCE}\n;typeof window.axe === 'object'`);
  if (!loaded) throw new Error('axe-core did not load into the page');
  const results = await page.evaluate(() => window.axe.run(document, {
    resultTypes: ['violations'],
  }));
  const violations = results.violations;
  if (!violations.length) {
    console.log(`  axe on ${label}: no violations`);
    return;
  }
  console.log(`  axe on ${label}: ${violations.length} rule(s) violated`);
  for (const v of violations) {
    const fails = FAILING.has(v.impact);
    console.log(`    ${fails ? 'FAIL' : 'note'} [${v.impact}] ${v.id}: ${v.help}`);
    console.log(`      ${v.helpUrl}`);
    for (const node of v.nodes) {
      console.log(`      at ${node.target.join(' ')}`);
      const summary = (node.failureSummary || '').split('\n').map((s) => s.trim()).filter(Boolean);
      for (const line of summary.slice(0, 3)) console.log(`        ${line}`);
    }
    if (fails) {
      const where = v.nodes.map((n) => n.target.join(' ')).join(', ');
      run.problem(`axe ${v.impact} on ${label}: ${v.id} (${v.help}) at ${where}; ${v.helpUrl}`);
    }
  }
}
