// The analysis of a finished game on its replay page (issue 26,
// docs/BROWSER.md): asked for with a button (GET /api/games/{id}/analysis
// starts it; the page shows its progress until it is made), then a chart
// of every player's chance to win move by move (SVG of our own, in the
// seats' colours), the moves to look at with their marks, each player's
// accuracy, and for the position shown the move played and the move the
// analysis prefers (its card outlined on the board). Loaded after
// replay.js, whose R, go, show and nameOf it uses; the chart is drawn
// with DOM calls only (no markup strings), like the rest of the page.
'use strict';

const A = {
  data: null, // the analysis document, once made
  asking: false, // a request or a wait is under way
  progress: null, // [key, params] while it runs
  error: null, // [key, params] when it failed
};

const SVG = 'http://www.w3.org/2000/svg';
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
// The drawing's size and its plot's margins: the chances' axis and its
// labels on the left, the moves' axis and its labels below (issue 50).
const CHART = { w: 600, h: 180, left: 40, right: 8, top: 14, bottom: 22 };

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k === 'cls' ? 'class' : k, String(v));
  for (const c of children) if (c) node.append(c);
  return node;
}

// Sets the analysis panel up for the game R.data shows.
function setupAnalysis() {
  $('analysis').hidden = false;
  $('analyse').addEventListener('click', askAnalysis);
  renderAnalysis();
  // /games/ID?analysis (a player's page links it, issue 50): asked at once.
  if (new URLSearchParams(location.search).has('analysis')) {
    askAnalysis();
    $('analysis').scrollIntoView({ block: 'start' });
  }
}

async function askAnalysis() {
  if (A.asking || A.data) return;
  A.asking = true;
  A.error = null;
  const path = `/api/games/${encodeURIComponent(R.data.game)}/analysis`;
  try {
    for (;;) {
      const response = await fetch(path, { headers: { Accept: 'application/json' } });
      const body = await response.json().catch(() => null);
      if (response.status === 200 && body) {
        A.data = body;
        A.progress = null;
        break;
      }
      if (response.status !== 202 || !body) {
        throw new Error(body && body.message ? body.message : `HTTP ${response.status}`);
      }
      A.progress = body.status === 'queued'
        ? ['analysis.queued', { ahead: body.ahead || 0 }]
        : ['analysis.running', { done: body.done, total: body.total }];
      A.done = [body.done, body.total];
      renderAnalysis();
      await new Promise((resolve) => { setTimeout(resolve, 1500); });
    }
  } catch (e) {
    A.error = ['analysis.failed', { why: e.message }];
  }
  A.asking = false;
  renderAnalysis();
  if (A.data) show();
}

// The panel: the button, the progress, or the analysis.
function renderAnalysis() {
  const box = $('analysis-body');
  $('analyse').hidden = Boolean(A.data) || A.asking;
  if (A.error) {
    box.replaceChildren(el('p', { role: 'alert', text: t(...A.error) }));
    return;
  }
  if (!A.data) {
    const parts = [el('p', { cls: 'muted', text: t('analysis.intro') })];
    if (A.progress) {
      const [done, totalN] = A.done || [0, 1];
      parts.push(el('p', { text: t(...A.progress) }),
        el('progress', { max: String(totalN || 1), value: String(done), 'aria-label': t('analysis.progress') }));
    }
    box.replaceChildren(...parts);
    return;
  }
  box.replaceChildren(legend(), chart(), figures(), explanation(), notable());
}

// Every seat's chance before each move, and the result at the end.
function series() {
  const points = A.data.moves.map((m) => m.chances);
  points.push(A.data.final_chances);
  return points;
}

function legend() {
  return el('ul', { cls: 'legend' }, R.data.seats.map((s) => el('li', {},
    el('span', { cls: `swatch seat-${s.seat}`, 'aria-hidden': 'true' }), nameOf(s.seat))));
}

function xOf(i, n) {
  return CHART.left + (i * (CHART.w - CHART.left - CHART.right)) / Math.max(1, n - 1);
}

function yOf(chance) {
  return CHART.top + (1 - chance) * (CHART.h - CHART.top - CHART.bottom);
}

// The axes: the chance to win at 0, 50 and 100% on the left, every tenth
// move below (n positions: moves 0 to n - 1), each axis named.
function axes(n) {
  const parts = [];
  const bottom = yOf(0);
  parts.push(svg('line', { cls: 'axis', x1: CHART.left, x2: CHART.left, y1: yOf(1), y2: bottom }),
    svg('line', { cls: 'axis', x1: CHART.left, x2: CHART.w - CHART.right, y1: bottom, y2: bottom }));
  for (const chance of [0, 0.5, 1]) {
    const label = svg('text', { cls: 'tick', x: CHART.left - 4, y: yOf(chance) + 4, 'text-anchor': 'end' });
    label.textContent = t('analysis.percent', { n: chance * 100 });
    parts.push(label);
  }
  const every = n > 120 ? 20 : 10;
  for (let move = 0; move < n; move += every) {
    const x = xOf(move, n);
    parts.push(svg('line', { cls: 'axis', x1: x, x2: x, y1: bottom, y2: bottom + 3 }));
    const label = svg('text', { cls: 'tick', x, y: bottom + 14, 'text-anchor': 'middle' });
    label.textContent = String(move);
    parts.push(label);
  }
  const xName = svg('text', { cls: 'tick axis-name', x: CHART.w - CHART.right, y: bottom - 4, 'text-anchor': 'end' });
  xName.textContent = t('analysis.axisMove');
  const yName = svg('text', { cls: 'tick axis-name', x: CHART.left + 4, y: CHART.top - 4 });
  yName.textContent = t('analysis.axisChance');
  parts.push(xName, yName);
  return parts;
}

function chart() {
  const points = series();
  const n = points.length;
  const lines = R.data.seats.map((s) => svg('polyline', {
    cls: `line seat-${s.seat}`,
    points: points.map((p, i) => `${xOf(i, n).toFixed(1)},${yOf(p[s.seat] || 0).toFixed(1)}`).join(' '),
  }));
  const marks = A.data.moves.filter((m) => MARKS[m.mark]).map((m) => svg('circle', {
    cls: `mark ${m.mark} seat-${m.seat}`,
    cx: xOf(m.seq, n).toFixed(1),
    cy: yOf(m.chances[m.seat] || 0).toFixed(1),
    r: m.mark === 'blunder' ? 5 : 4,
  }));
  const cursor = svg('line', { id: 'chart-cursor', cls: 'cursor', x1: 0, x2: 0, y1: yOf(1), y2: yOf(0) });
  const half = svg('line', { cls: 'half', x1: CHART.left, x2: CHART.w - CHART.right, y1: yOf(0.5), y2: yOf(0.5) });
  const drawing = svg('svg', {
    viewBox: `0 0 ${CHART.w} ${CHART.h}`,
    role: 'img',
    'aria-label': t('analysis.chart'),
  }, ...axes(n), half, ...lines, ...marks, cursor);
  // A click on the chart goes to the nearest position (the move list
  // below does the same by keyboard).
  drawing.addEventListener('click', (e) => {
    const box = drawing.getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * CHART.w;
    const i = Math.round(((x - CHART.left) / (CHART.w - CHART.left - CHART.right)) * (n - 1));
    go(Math.max(0, Math.min(n - 1, i)));
  });
  return el('figure', { cls: 'chart' }, drawing, el('figcaption', { cls: 'muted', text: t('analysis.chart') }));
}

function figures() {
  const heads = ['analysis.player', 'analysis.accuracy', 'analysis.inaccuracies', 'analysis.mistakes', 'analysis.blunders'];
  return el('table', { cls: 'figures' },
    el('tr', {}, heads.map((h) => el('th', { scope: 'col', text: t(h) }))),
    A.data.figures.map((f) => el('tr', {},
      el('td', { text: nameOf(f.seat) }),
      // In the page's language: 99.2% in English, 99,2 % in French.
      el('td', { text: f.accuracy === null || f.accuracy === undefined ? '–' : t('analysis.percent', { n: f.accuracy }) }),
      el('td', { text: String(f.inaccuracies) }),
      el('td', { text: String(f.mistakes) }),
      el('td', { text: String(f.blunders) }))));
}

// What accuracy and the marks mean, one sentence each (issue 50).
function explanation() {
  return el('p', { id: 'analysis-explain', cls: 'muted', text: `${t('analysis.explainAccuracy')} ${t('analysis.explainMarks')}` });
}

function percent(x) {
  return Math.round(x * 100);
}

// The moves to look at: every inaccuracy, mistake and blunder, each a
// button to its position.
function notable() {
  const list = A.data.moves.filter((m) => MARKS[m.mark]);
  const items = list.map((m) => el('li', {}, el('button', {
    type: 'button',
    cls: `quiet small mark-${m.mark}`,
    onclick: () => go(m.seq),
  }, t('analysis.moveLine', {
    n: m.seq + 1, who: nameOf(m.seat), mark: `${MARKS[m.mark]} ${t(`analysis.mark.${m.mark}`)}`, drop: percent(m.drop),
  }))));
  return el('div', {}, el('h3', { text: t('analysis.notable') }),
    items.length ? el('ol', { cls: 'notable' }, items) : el('p', { cls: 'muted', text: t('analysis.none') }));
}

// What the analysis says of the move made at the position shown (step s
// is the position before move s), and the preferred card outlined.
function showAnalysis() {
  const line = $('analysis-move');
  const cursor = document.getElementById('chart-cursor');
  if (!A.data) {
    line.textContent = '';
    return;
  }
  const n = A.data.moves.length + 1;
  if (cursor) {
    const x = xOf(R.step, n).toFixed(1);
    cursor.setAttribute('x1', x);
    cursor.setAttribute('x2', x);
  }
  const m = A.data.moves[R.step];
  for (const node of document.querySelectorAll('.card.preferred')) node.classList.remove('preferred');
  if (!m) {
    line.textContent = t('analysis.end');
    return;
  }
  const st = R.data.positions[R.step];
  const who = nameOf(m.seat);
  const chances = R.data.seats.map((s) => t('analysis.chance', { who: nameOf(s.seat), n: percent(m.chances[s.seat] || 0) })).join(', ');
  const parts = [t('analysis.next', { n: m.seq + 1 }), t('analysis.chances', { list: chances })];
  if (m.mark === 'resigned') {
    parts.push(t('analysis.resigned', { who }));
  } else if (m.mark === 'forced') {
    parts.push(t('analysis.forced', { who, move: moveText(m.played, st) }));
  } else if (m.mark === 'best') {
    parts.push(t('analysis.best', { who, move: moveText(m.played, st) }));
  } else {
    // A judged move: marked (an inaccuracy, a mistake, a blunder), or good
    // (less than 10 points worse than the best; issue 50: its mark's word
    // was missing and the raw key showed).
    const words = { who, move: moveText(m.played, st), drop: percent(m.drop) };
    parts.push(MARKS[m.mark]
      ? t('analysis.played', { ...words, mark: t(`analysis.mark.${m.mark}`) })
      : t('analysis.good', words), t('analysis.prefers', { move: moveText(m.best, st) }));
    const id = actionCard(m.best);
    if (id !== null) {
      for (const node of document.querySelectorAll(`.card[data-card="${id}"]`)) node.classList.add('preferred');
    }
  }
  line.textContent = parts.join(' ');
}
