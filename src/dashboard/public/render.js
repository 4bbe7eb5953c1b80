// DOM builders for the sessions and turns tables. Text from models and users goes in as text
// nodes only (never markup).
/** An element with attributes/dataset and children (strings become text). */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null) continue;
    if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k === 'className') node.className = v;
    else if (k === 'title') node.title = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c instanceof Node ? c : String(c));
  return node;
}

const DASH = '–';

/** Local time of an ISO stamp, with the date when it is not today. */
export function shortTime(iso) {
  if (!iso) return DASH;
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString() : d.toLocaleString();
}

function clip(text, max) {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A table row of the sessions list. */
export function sessionRow(s, selected, onSelect) {
  return el(
    'tr',
    {
      dataset: { sessionId: s.session_id },
      className: selected ? 'selected' : '',
      onclick: () => onSelect(s.session_id),
      tabindex: '0',
      onkeydown: (e) => {
        if (e.key === 'Enter') onSelect(s.session_id);
      },
    },
    el('td', { className: 'mono', title: s.session_id }, clip(s.session_id, 40)),
    el('td', { className: 'num' }, s.turns),
    el('td', { className: 'num' }, s.judged),
    el('td', {}, shortTime(s.last_turn_at)),
    el('td', { className: 'num' }, s.policy_version ?? DASH),
  );
}

function voteChip(v) {
  if (v === 'fail') return el('span', { className: 'vote fail', title: 'judge call failed' }, 'fail');
  const cls = v > 0 ? 'pos' : v < 0 ? 'neg' : 'zero';
  return el('span', { className: `vote ${cls}` }, signed(v));
}

function nextStateCell(t) {
  if (t.next_state === 'pending') return el('td', { className: 'muted' }, 'waiting for the next request…');
  if (t.next_state === null) return el('td', { className: 'muted' }, 'none', t.next_state_reason ? ` (${t.next_state_reason})` : '');
  return el(
    'td',
    {},
    el('span', { className: `role role-${t.next_state.role}` }, t.next_state.role),
    el('span', { className: 'text' }, t.next_state.content),
  );
}

function hintCell(j) {
  if (!j || (j.hint === null && !j.hint_accepted)) return el('td', { className: 'muted' }, DASH);
  return el(
    'td',
    {},
    el('span', { className: j.hint_accepted ? 'badge ok' : 'badge no' }, j.hint_accepted ? 'accepted' : 'rejected'),
    j.hint ? el('span', { className: 'text' }, j.hint) : null,
  );
}

function signed(v) {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '0';
}

function judgeCell(j) {
  if (!j) return el('td', { className: 'muted' }, 'not judged');
  const cls = j.score > 0 ? 'pos' : j.score < 0 ? 'neg' : '';
  return el(
    'td',
    {},
    el('span', { className: `score ${cls}`, title: 'majority score' }, j.score === null ? DASH : signed(j.score)),
    el('span', { className: 'votes', title: 'judge votes' }, j.votes.map(voteChip)),
  );
}

function sampleCell(j) {
  if (!j) return el('td', { className: 'muted' }, DASH);
  if (j.dropped_reason) return el('td', { className: 'dropped' }, 'dropped: ', el('b', {}, j.dropped_reason));
  return el(
    'td',
    {},
    el('span', { className: 'sample-type' }, j.sample_type ?? 'no sample'),
    el('span', { className: 'mask', title: 'loss mask: 1 trains on this turn, 0 does not' }, `mask ${j.loss_mask ?? DASH}`),
  );
}

/** A table row of the turns list; `expanded` shows the full texts. */
export function turnRow(t, expanded, onToggle) {
  const response = t.response === '' && t.tool_calls > 0 ? `[${t.tool_calls} tool call(s)]` : t.response;
  return el(
    'tr',
    {
      dataset: { turnId: String(t.turn_id) },
      className: expanded ? 'expanded' : '',
      onclick: () => onToggle(t.turn_id),
      title: expanded ? 'click to fold' : 'click to show the full texts',
    },
    el('td', { className: 'num' }, t.turn_id),
    el('td', { className: 'num' }, t.policy_version),
    el('td', {}, el('span', { className: 'text' }, response)),
    nextStateCell(t),
    judgeCell(t.judgement),
    hintCell(t.judgement),
    sampleCell(t.judgement),
  );
}

/** First/prev/next/last buttons with "a–b of n". */
export function pager(offset, limit, total, go) {
  const last = Math.max(0, Math.floor((total - 1) / limit) * limit);
  const button = (label, to, disabled, name) =>
    el('button', { type: 'button', dataset: { page: name }, ...(disabled ? { disabled: '' } : {}), onclick: () => go(to) }, label);
  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(total, offset + limit);
  return [
    button('«', 0, offset === 0, 'first'),
    button('‹ prev', Math.max(0, offset - limit), offset === 0, 'prev'),
    el('span', { className: 'range' }, `${from}–${to} of ${total}`),
    button('next ›', offset + limit, offset + limit >= total, 'next'),
    button('»', last, offset >= last, 'last'),
  ];
}
