// The dashboard page: polls the server every 2 s (status, new steps since the last one seen, the
// visible page of sessions and turns) and redraws what changed. Charts grow incrementally;
// lists are fetched one page at a time, so thousands of turns stay cheap.
import { AuthError, getJson, setKey, takeKeyFromUrl } from './api.js';
import { IntervalChart, LineChart, formatNumber } from './chart.js';
import { el, pager, sessionRow, shortTime, turnRow } from './render.js';

const POLL_MS = 2000;
const PAGE = 20;
// The evaluation is a grouped scan of the whole sample store: every 5th poll, or when the version changes.
const EVALUATION_EVERY = 5;

const CHARTS = [
  { id: 'reward', title: 'Reward / rating', series: [{ key: 'reward_mean', label: 'reward' }], extraKeys: /rating/i, include: [-1, 1] },
  {
    id: 'advantage',
    title: 'Advantage',
    series: [
      { key: 'advantage_mean', label: 'mean' },
      { key: 'advantage_std', label: 'std' },
    ],
    include: [0],
  },
  { id: 'effective', title: 'Effective sample rate', series: [{ key: 'effective_sample_rate', label: 'rate' }], include: [0, 1] },
  { id: 'hint', title: 'Hint accept rate', series: [{ key: 'hint_accept_rate', label: 'rate' }], include: [0, 1] },
  { id: 'clipfrac', title: 'Clip fraction', series: [{ key: 'pg_clipfrac', label: 'clipfrac' }], include: [0] },
  {
    id: 'kl',
    title: 'KL',
    series: [
      { key: 'ppo_kl', label: 'ppo_kl' },
      { key: 'kl_loss', label: 'kl_loss' },
    ],
    include: [0],
  },
  { id: 'staleness', title: 'Staleness (versions)', series: [{ key: 'staleness_mean', label: 'mean' }], include: [0] },
  { id: 'step-time', title: 'Step time (s)', series: [{ key: 'step_time_s', label: 'seconds' }], include: [0] },
];

const state = {
  lastStep: 0,
  sessionsOffset: 0,
  selected: null,
  turnsOffset: 0,
  expanded: new Set(),
  shown: { sessions: '', turns: '' },
  ticks: 0,
  evaluatedVersion: null,
};

// First in the grid: the one chart that answers "is it learning?" across versions.
const byVersion = new IntervalChart(document.getElementById('charts'), {
  id: 'by-version',
  title: 'Reward by policy version (95% CI)',
  include: [-1, 1],
});
const charts = CHARTS.map((spec) => new LineChart(document.getElementById('charts'), spec));

function setConnection(kind, text) {
  const node = document.getElementById('connection');
  node.dataset.state = kind;
  node.textContent = text;
}

function renderStatus(s) {
  for (const dd of document.querySelectorAll('#status [data-field]')) {
    const v = s[dd.dataset.field];
    dd.textContent = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : formatNumber(v)) : (v ?? '–');
  }
  const drops = s.drops_by_reason ?? {};
  document.querySelector('#status [data-field=samples_dropped]').title =
    Object.entries(drops)
      .map(([reason, n]) => `${reason}: ${n}`)
      .join('\n') || 'no drops';
}

async function refreshSteps(status) {
  // A step counter that went back means the server started a new run: start the charts over.
  if (status.step !== null && status.step < state.lastStep) {
    charts.forEach((c) => c.reset());
    state.lastStep = 0;
  }
  const { steps } = await getJson(`steps?since=${state.lastStep}`);
  if (steps.length === 0) return;
  charts.forEach((c) => c.append(steps));
  state.lastStep = steps[steps.length - 1].step;
  document.body.dataset.lastStep = String(state.lastStep);
}

/** The regression gate's newest refusals, each with its reason (hidden while there are none). */
function renderRefusals(r) {
  const section = document.getElementById('gate');
  section.hidden = r === undefined || r.total === 0;
  if (section.hidden) return;
  document.getElementById('gate-count').textContent = `(${r.total})`;
  const items = r.newest.map((x) =>
    el(
      'li',
      {},
      el('time', { dateTime: x.time }, shortTime(x.time)),
      ` step ${x.at_step}, version ${x.policy_version} kept serving: ${x.reason}`,
    ),
  );
  document.getElementById('gate-refusals').replaceChildren(...items);
}

async function refreshEvaluation(status) {
  const due = state.ticks++ % EVALUATION_EVERY === 0 || status.policy_version !== state.evaluatedVersion;
  if (!due) return;
  state.evaluatedVersion = status.policy_version;
  try {
    const evaluation = await getJson('evaluation');
    byVersion.update(evaluation);
    renderRefusals(evaluation.gate_refusals);
  } catch (err) {
    if (err instanceof AuthError) throw err;
    byVersion.unavailable(err.message);
  }
}

async function refreshSessions() {
  const page = await getJson(`sessions?offset=${state.sessionsOffset}&limit=${PAGE}`);
  if (page.offset !== state.sessionsOffset) return; // an answer for a page the user already left
  const key = JSON.stringify([page, state.selected]);
  if (key === state.shown.sessions) return;
  state.shown.sessions = key;
  document.getElementById('sessions-count').textContent = `(${page.total})`;
  const rows = page.items.map((s) => sessionRow(s, s.session_id === state.selected, selectSession));
  if (rows.length === 0)
    rows.push(el('tr', {}, el('td', { colspan: '5', className: 'muted' }, 'no sessions yet: talk to the server and they appear here')));
  document.querySelector('#sessions tbody').replaceChildren(...rows);
  document.getElementById('sessions-pager').replaceChildren(
    ...pager(page.offset, PAGE, page.total, (offset) => {
      state.sessionsOffset = offset;
      void refreshSessions();
    }),
  );
}

async function refreshTurns() {
  if (state.selected === null) return;
  const id = state.selected;
  let page;
  try {
    page = await getJson(`sessions/${encodeURIComponent(id)}/turns?offset=${state.turnsOffset}&limit=${PAGE}`);
  } catch (err) {
    if (err instanceof AuthError) throw err;
    document.getElementById('turns-title').textContent = `${id}: ${err.message}`;
    return;
  }
  if (id !== state.selected || page.offset !== state.turnsOffset) return; // the user moved on meanwhile
  const key = JSON.stringify([page, [...state.expanded]]);
  if (key === state.shown.turns) return;
  state.shown.turns = key;
  document.getElementById('turns-title').textContent = `of ${id} (${page.total})`;
  const rows = page.items.map((t) => turnRow(t, state.expanded.has(t.turn_id), toggleTurn));
  if (rows.length === 0) rows.push(el('tr', {}, el('td', { colspan: '7', className: 'muted' }, 'no turns on this page')));
  document.querySelector('#turns tbody').replaceChildren(...rows);
  document.getElementById('turns-pager').replaceChildren(
    ...pager(page.offset, PAGE, page.total, (offset) => {
      state.turnsOffset = offset;
      void refreshTurns();
    }),
  );
}

function selectSession(id) {
  state.selected = id;
  state.turnsOffset = 0;
  state.expanded.clear();
  state.shown.turns = '';
  void refreshSessions().then(refreshTurns).catch(showError);
}

function toggleTurn(turnId) {
  if (state.expanded.has(turnId)) state.expanded.delete(turnId);
  else state.expanded.add(turnId);
  void refreshTurns().catch(showError);
}

function showError(err) {
  if (err instanceof AuthError) {
    document.getElementById('key-form').hidden = false;
    setConnection('auth', 'API key needed');
  } else {
    setConnection('offline', `offline: ${err.message} (retrying)`);
  }
}

async function tick() {
  try {
    const status = await getJson('status');
    renderStatus(status);
    await refreshSteps(status);
    await refreshEvaluation(status);
    await refreshSessions();
    await refreshTurns();
    document.getElementById('key-form').hidden = true;
    setConnection('live', `live · updated ${new Date().toLocaleTimeString()}`);
  } catch (err) {
    showError(err);
  } finally {
    setTimeout(tick, POLL_MS);
  }
}

document.getElementById('key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = document.getElementById('key-input');
  setKey(input.value.trim());
  input.value = '';
  document.getElementById('key-form').hidden = true;
  setConnection('connecting', 'connecting…');
});

takeKeyFromUrl();
void tick();
