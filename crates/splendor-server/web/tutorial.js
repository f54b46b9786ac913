// The tutorial (issue 50, docs/BROWSER.md): a first game that teaches,
// against the tutor on a prepared deal. The lobby offers it (to a first
// visit in words of its own); `create` with `tutorial` makes the room, the
// page starts it, and the room plays the prepared moves of both seats
// (GET /tutorial.json, the script the room follows). Then, lesson by
// lesson, a panel above the table says what to do and why, with the rule's
// number as How to play gives it (a link to it there), and marks the controls to press in order (for the keyboard and
// for touch alike); on a lesson only its move is sent. The learner may
// leave the lessons and play freely at any moment; the game goes on. The
// page knows no rules: every move it asks for is one of the server's
// legal actions, and a lesson whose move is not legal any more ends the
// lessons. Loaded after table.js and before app.js, whose `act` and
// `render` call it.
'use strict';

const TUTORIAL_DONE_KEY = 'splendor.tutorialDone';
const TUT = {
  steps: null, // the script's moves in order: { seat, action, lesson, room }
  prefix: 0, // how many the room plays before the first lesson
  starting: false, // our `create` is on its way: start the room it makes
  off: false, // a lesson's move is not legal any more: no more lessons
  skipped: false, // the learner left the lessons
  firstVisit: false, // the page opened without a session: offer it first
  focused: null, // the control last given the focus
};
// The lessons, in order, and the rule each teaches (docs/RULES.md).
const LESSONS = ['take_three', 'take_two', 'reserve', 'buy_with_bonus', 'take_past_ten', 'noble'];
const LESSON_RULES = {
  take_three: 'R4', take_two: 'R5', reserve: 'R6', buy_with_bonus: 'R7.2', take_past_ten: 'R8', return: 'R8', noble: 'R9',
};

async function loadTutorialScript() {
  if (TUT.steps) return;
  try {
    const response = await fetch('/tutorial.json', { headers: { Accept: 'application/json' } });
    const doc = await response.json();
    TUT.prefix = doc.prefix.length;
    TUT.steps = [
      ...doc.prefix.map((l) => ({ ...l, room: true })),
      ...doc.lessons.map((l) => ({ ...l, room: l.seat !== 0 })),
    ];
    render();
  } catch (_) {
    // Offline for a moment: the game goes on without the lessons' words.
  }
}

function startTutorial() {
  if (S.quick || S.room || TUT.starting) return;
  TUT.starting = true;
  TUT.off = false;
  TUT.skipped = false;
  leaveQueue();
  loadTutorialScript();
  send({ type: 'create', seats: 2, tutorial: true });
}

// With every `room`: our tutorial room waits for its start.
function tutorialRoom() {
  const r = S.room;
  if (!TUT.starting || !r || !r.tutorial || r.status !== 'waiting' || r.you.seat !== 0) return;
  TUT.starting = false;
  send({ type: 'start', seat_order: 'joined' });
}

function inTutorial() {
  return Boolean(S.room && S.room.tutorial && S.state && S.state.you === 0 && TUT.steps && !TUT.skipped);
}

// The room is still playing the prepared moves (motion.js flies none).
function tutorialPreparing() {
  return inTutorial() && S.state.version < TUT.prefix;
}

// The same move, for a lesson: a buy by its card (whatever the payment).
function sameTutorialMove(a, b) {
  const card = (x) => (x && x.buy !== undefined ? (typeof x.buy === 'object' ? x.buy.card : x.buy) : undefined);
  if (card(a) !== undefined || card(b) !== undefined) return card(a) === card(b);
  return actionKey(a) === actionKey(b);
}

// The lesson the learner is to play now, if any.
function currentLesson() {
  if (!inTutorial() || TUT.off || S.result) return null;
  const step = TUT.steps[S.state.version];
  if (!step || step.room || S.state.to_act !== 0) return null;
  if (!(S.state.legal_actions || []).some((a) => sameTutorialMove(a, step.action))) {
    TUT.off = true;
    return null;
  }
  return step;
}

// Before `act` sends: on a lesson, only its move.
function tutorialAllows(action) {
  const step = currentLesson();
  if (!step || sameTutorialMove(action, step.action)) return true;
  toast(t('tutorial.notThis'));
  return false;
}

function cardOf(id) {
  const card = cardById(S.state, id);
  return card ? cardText(card) : `#${id}`;
}

function colorsText(list) {
  return list.map(colorName).join(', ');
}

// What the lesson asks, in words.
function lessonText(step) {
  const a = step.action;
  switch (step.lesson) {
    case 'take_three': return t('tutorial.takeThree', { colors: colorsText(a.take) });
    case 'take_two': return t('tutorial.takeTwo', { color: colorName(a.take_two) });
    case 'reserve': return t('tutorial.reserve', { card: cardOf(a.reserve) });
    case 'buy_with_bonus': {
      const card = cardById(S.state, a.buy);
      const bonuses = S.state.players[0].bonuses;
      const used = card ? COLORS.filter((c) => card.cost[c] > 0 && bonuses[c] > 0) : [];
      return t('tutorial.buyWithBonus', { card: cardOf(a.buy), colors: colorsText(used) });
    }
    case 'take_past_ten': return t('tutorial.takePastTen', { colors: colorsText(a.take) });
    case 'return': return t('tutorial.return', { counts: countsText(a.return) });
    case 'noble': return t('tutorial.noble', { card: cardOf(a.buy) });
    default: return '';
  }
}

// The controls to press now for the lesson's move, in order: one at a
// time is marked, then the button that confirms it.
function lessonMarks(step) {
  const a = step.action;
  const picked = (c) => S.picks.filter((x) => x === c).length;
  if (a.take || a.take_two) {
    const want = a.take || [a.take_two, a.take_two];
    const next = want.find((c, i) => picked(c) < want.slice(0, i + 1).filter((x) => x === c).length);
    return next ? [`#supply [data-key="token-${next}"]`] : ['#turn [data-key="confirm-take"]'];
  }
  if (a.reserve !== undefined || a.buy !== undefined) {
    const id = a.reserve !== undefined ? a.reserve : a.buy;
    if (!S.selected || S.selected.card !== id) return [`[data-key="card-${id}"]`];
    const label = t(a.reserve !== undefined ? 'move.reserve' : 'move.buy');
    return [...document.querySelectorAll('#turn [data-key^="confirm-"]')]
      .filter((b) => b.textContent === label)
      .map((b) => `#turn [data-key="${b.dataset.key}"]`);
  }
  if (a.return) {
    const next = COLORS.find((c) => (S.give[c] || 0) < (a.return[c] || 0));
    return next ? [`#turn [data-key="return-${next}"]`] : ['#turn [data-key="confirm-return"]'];
  }
  return [];
}

function renderTutorial() {
  const box = $('tutorial-box');
  for (const n of document.querySelectorAll('.tutorial-mark')) n.classList.remove('tutorial-mark');
  const on = inTutorial() && !$('game').hidden;
  box.hidden = !on;
  if (!on) return;
  const v = S.state.version;
  const step = currentLesson();
  let title;
  let text;
  let rule = null;
  if (v < TUT.prefix) {
    title = t('tutorial.title');
    text = t('tutorial.preparing');
  } else if (step) {
    const n = LESSONS.indexOf(step.lesson === 'return' ? 'take_past_ten' : step.lesson) + 1;
    title = t('tutorial.lesson', { n, total: LESSONS.length });
    text = lessonText(step);
    rule = LESSON_RULES[step.lesson];
    const marks = lessonMarks(step);
    for (const sel of marks) {
      const node = document.querySelector(sel);
      if (node) node.classList.add('tutorial-mark');
    }
    // The focus goes to the control to press, once each (keyboard play:
    // Enter after Enter), unless the player is typing elsewhere.
    const first = marks[0] && document.querySelector(marks[0]);
    const typing = document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
    if (first && marks[0] !== TUT.focused && !typing) {
      TUT.focused = marks[0];
      first.focus();
    }
  } else if (TUT.off) {
    title = t('tutorial.title');
    text = t('tutorial.off');
  } else if (v >= TUT.steps.length || S.result) {
    title = t('tutorial.doneTitle');
    text = t('tutorial.done');
    tutorialFinished();
  } else {
    title = t('tutorial.title');
    text = t(v === TUT.prefix ? 'tutorial.welcome' : 'tutorial.tutorMoves');
  }
  box.replaceChildren(
    el('h2', { text: title }),
    el('p', { id: 'tutorial-text', text }),
    rule ? el('p', { cls: 'muted' }, el('a', { href: `/how-to-play#${rule}`, target: '_blank', rel: 'noopener', text: t('tutorial.rule', { rule }) })) : null,
    v >= TUT.steps.length || TUT.off ? null : el('button', {
      type: 'button', id: 'tutorial-skip', cls: 'quiet small', text: t('tutorial.skip'),
      onclick: () => { TUT.skipped = true; tutorialFinished(); render(); },
    }));
}

function tutorialFinished() {
  TUT.firstVisit = false;
  try { localStorage.setItem(TUTORIAL_DONE_KEY, '1'); } catch { /* private browsing */ }
}

// The lobby's line: a first visit is asked in words of its own.
function renderTutorialOffer() {
  const line = $('tutorial-line');
  line.classList.toggle('offer', TUT.firstVisit);
  $('tutorial-offer-text').textContent = t(TUT.firstVisit ? 'tutorial.offerFirst' : 'tutorial.offer');
}

function setupTutorial() {
  let done = null;
  try { done = localStorage.getItem(TUTORIAL_DONE_KEY); } catch { /* private browsing */ }
  TUT.firstVisit = !S.token && !done;
  $('start-tutorial').addEventListener('click', startTutorial);
}
