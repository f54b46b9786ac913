// The machinery of the browser suite: Chromium (Debian's, through
// playwright-core), one browser context per player, screenshots after every
// step, and a report that says where the screenshots are when a run fails.
// What the steps do is in suite.mjs; how a player reads and uses the page is
// in table.mjs; the accessibility check is in axe.mjs.

import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

/// How long one wait for the page may take before the step fails: a safety
/// net against a hung run, never a way to let time pass.
export const WAIT_MS = 15_000;

/// A whole run may not take longer than this: only a hung run is stopped.
/// The suite takes about four minutes with its three whole games, and
/// five and a half on a slow day of a shared 2-core machine (2026-11-27:
/// it passed every step but the last within 330 s).
const RUN_LIMIT_MS = 600_000;

/// One player: a name, a browser context of its own (its own localStorage,
/// hence its own session) and its page.
export class Player {
  constructor(name, context, page) {
    this.name = name;
    this.context = context;
    this.page = page;
  }
}

/// What every step is given.
export class Run {
  constructor({ baseUrl, browser, shotsDir }) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.browser = browser;
    this.shotsDir = shotsDir;
    /// The players, in the order they were opened.
    this.players = [];
    /// Every page open, { label, page }, for screenshots: the players'
    /// pages and the others they opened (a replay page, ...).
    this.pages = [];
    /// Problems that do not stop the run (accessibility violations): all
    /// are reported at the end, and any of them fails it.
    this.problems = [];
    /// Errors the pages threw (uncaught exceptions): each fails the run.
    this.pageErrors = [];
    /// Values steps hand to later steps (the room code, the log before a
    /// reload, ...).
    this.shared = {};
    this.stepIndex = 0;
    this.stepName = '';
  }

  /// Opens a player in a context of its own, `viewport` sized; `options`
  /// add to the context's (`reducedMotion: 'reduce'`, say).
  async openPlayer(name, viewport, options = {}) {
    const context = await this.browser.newContext({ viewport, locale: 'en-US', ...options });
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    this.watch(name, page);
    const player = new Player(name, context, page);
    this.players.push(player);
    return player;
  }

  /// Keeps `page` in the screenshots, and its errors in the report.
  watch(label, page) {
    page.on('pageerror', (err) => {
      this.pageErrors.push(`${label}: ${err.message}`);
      console.log(`  [${label} page error] ${err.message}`);
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') console.log(`  [${label} console error] ${msg.text()}`);
    });
    this.pages.push({ label, page });
  }

  /// The page `player` opens by clicking `link` (a link to a new tab).
  async followToNewPage(player, link, label) {
    const [page] = await Promise.all([player.context.waitForEvent('page'), link.click()]);
    await page.waitForLoadState();
    this.watch(`${player.name} ${label}`, page);
    return page;
  }

  /// Closes a page opened by followToNewPage and brings the player's own
  /// page to the front again: Chromium throttles the animation frames of a
  /// tab behind another, and the waits poll on animation frames.
  async closePage(player, page) {
    this.pages = this.pages.filter((p) => p.page !== page);
    await page.close();
    await player.page.bringToFront();
  }

  player(name) {
    const p = this.players.find((x) => x.name === name);
    if (!p) throw new Error(`no player named ${name}`);
    return p;
  }

  /// Records a problem that fails the run at the end but lets it go on.
  problem(text) {
    this.problems.push(`[${this.stepName}] ${text}`);
  }

  /// A screenshot of every player's page, named after the step.
  async screenshots(label) {
    for (const p of this.pages) {
      if (p.page.isClosed()) continue;
      const file = path.join(this.shotsDir, `${shotPrefix(this.stepIndex)}-${slug(label)}-${slug(p.label)}.png`);
      try {
        await p.page.screenshot({ path: file, fullPage: true });
      } catch (err) {
        console.log(`  (no screenshot of ${p.label}: ${err.message.split('\n')[0]})`);
      }
    }
  }

  /// After a failure: a screenshot and the HTML of every page.
  async failureEvidence() {
    for (const p of this.pages) {
      if (p.page.isClosed()) continue;
      const base = path.join(this.shotsDir, `failure-${slug(p.label)}`);
      try {
        await p.page.screenshot({ path: `${base}.png`, fullPage: true });
        fs.writeFileSync(`${base}.html`, await p.page.content());
      } catch (err) {
        console.log(`  (no failure evidence from ${p.label}: ${err.message.split('\n')[0]})`);
      }
    }
  }
}

function shotPrefix(i) {
  return String(i).padStart(2, '0');
}

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/// A step: a name and what it does with the run.
export function step(name, run) {
  return { name, run };
}

/// Runs `steps` in order against the server at `baseUrl`; a step that
/// throws ends the run. Returns the process exit code.
export async function runSuite(steps, { baseUrl, chromiumPath, shotsDir }) {
  fs.mkdirSync(shotsDir, { recursive: true });
  for (const f of fs.readdirSync(shotsDir)) {
    if (/\.(png|html)$/.test(f)) fs.rmSync(path.join(shotsDir, f));
  }
  const started = Date.now();
  const watchdog = setTimeout(() => {
    console.log(`\nBROWSER SUITE FAILED: the run took more than ${RUN_LIMIT_MS / 1000} s`);
    console.log(`Screenshots: ${shotsDir}`);
    process.exit(1);
  }, RUN_LIMIT_MS);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // Root in a container: Chromium's sandbox needs user namespaces.
    args: ['--no-sandbox'],
  });
  console.log(`Chromium ${browser.version()} (${chromiumPath}), server ${baseUrl}`);
  const run = new Run({ baseUrl, browser, shotsDir });
  let failure = null;
  // While working on some steps (never in CI): SPLENDOR_BROWSER_ONLY, a
  // regular expression, runs only the steps whose names match (steps that
  // need what earlier ones left then fail).
  const only = process.env.SPLENDOR_BROWSER_ONLY ? new RegExp(process.env.SPLENDOR_BROWSER_ONLY) : null;
  if (only) steps = steps.filter((s) => only.test(s.name));
  for (const [i, s] of steps.entries()) {
    run.stepIndex = i + 1;
    run.stepName = s.name;
    const t0 = Date.now();
    console.log(`step ${run.stepIndex}/${steps.length}: ${s.name}`);
    try {
      await s.run(run);
      await run.screenshots(s.name);
      console.log(`  ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (err) {
      failure = { step: s.name, err };
      console.log(`  FAILED: ${err.stack || err}`);
      await run.failureEvidence();
      break;
    }
  }
  await browser.close().catch(() => {});
  clearTimeout(watchdog);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const reasons = [];
  if (failure) reasons.push(`step "${failure.step}" failed: ${failure.err.message.split('\n')[0]}`);
  for (const p of run.problems) reasons.push(p);
  for (const e of run.pageErrors) reasons.push(`uncaught error in the page: ${e}`);
  if (!reasons.length) {
    console.log(`\nBROWSER SUITE PASSED: ${steps.length} steps in ${secs} s; screenshots in ${shotsDir}`);
    return 0;
  }
  console.log(`\nBROWSER SUITE FAILED after ${secs} s:`);
  for (const r of reasons) console.log(`  - ${r}`);
  const evidence = failure ? ' (failure-*.png and failure-*.html: each page when the step failed)' : '';
  console.log(`Screenshots of every step: ${shotsDir}${evidence}`);
  return 1;
}
