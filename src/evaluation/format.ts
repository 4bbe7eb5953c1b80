// The evaluation as a text table for `openclaw-rl report`: one Markdown row per policy version, so
// it reads in a terminal and pastes into an issue or a notebook as it is.
import type { Evaluation, RateJson, VersionEvaluation } from './aggregate.ts';
import type { Interval } from './stats.ts';

function num(v: number | null, digits: number): string {
  return v === null ? '–' : v.toFixed(digits);
}

function interval(ci: Interval | null, digits: number): string {
  return ci === null ? '' : ` [${ci.low.toFixed(digits)}, ${ci.high.toFixed(digits)}]`;
}

function rate(r: RateJson): string {
  return r.rate === null ? '–' : `${r.rate.toFixed(2)} (${r.count})${interval(r.ci95, 2)}`;
}

function reasons(rec: Record<string, number>): string {
  const parts = Object.entries(rec)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, n]) => `${reason} ${n}`);
  return parts.length > 0 ? parts.join(', ') : '–';
}

function row(v: VersionEvaluation, serving: number | null): string[] {
  const t = v.sample_types;
  const drops = { ...v.dropped_turns };
  for (const [reason, n] of Object.entries(v.dropped_samples)) drops[`${reason} (sample)`] = n;
  return [
    `${v.policy_version}${v.policy_version === serving ? ' *' : ''}`,
    String(v.judged_turns),
    `${num(v.reward.mean, 3)}${interval(v.reward.ci95, 2)}`,
    rate(v.negative_rate),
    rate(v.hint_rate),
    `${v.samples} (${t.rl}/${t.opd}/${t['opd+rl']})`,
    String(v.unjudged_samples),
    reasons(drops),
  ];
}

const HEADER = [
  'version',
  'judged',
  'reward mean [95% CI]',
  '−1 rate (n) [95% CI]',
  'hint rate (n) [95% CI]',
  'samples (rl/opd/opd+rl)',
  'unjudged',
  'drops',
];

/** Columns of the replay table: metric, header, digits. */
const REPLAY_COLUMNS: Array<[string, string, number]> = [
  ['replay_opd_advantage', 'replay OPD advantage (n)', 3],
  ['replay_hint_satisfied', 'hint satisfied (n)', 2],
  ['probe_kl', 'probe KL to serving (n)', 4],
  ['probe_length_mean', 'probe length', 1],
  ['probe_empty_rate', 'probe empty', 2],
  ['probe_garbled_rate', 'probe garbled', 2],
];

/** The replay evaluation's numbers per version (judge-free, on new answers); empty when none ran. */
function replayTable(e: Evaluation): string[] {
  const rows = e.versions.filter((v) => Object.keys(v.replay).length > 0);
  if (rows.length === 0) return [];
  const header = ['version', ...REPLAY_COLUMNS.map(([, h]) => h)];
  const lines = [
    '',
    'Replay evaluation (new answers of each version; docs/evaluation.md):',
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
  ];
  for (const v of rows) {
    const cells = REPLAY_COLUMNS.map(([metric, h, digits]) => {
      const m = v.replay[metric];
      if (m === undefined) return '–';
      return h.endsWith('(n)') ? `${m.value.toFixed(digits)} (${m.samples})` : m.value.toFixed(digits);
    });
    lines.push(`| ${v.policy_version}${v.policy_version === e.serving_policy_version ? ' *' : ''} | ${cells.join(' | ')} |`);
  }
  return lines;
}

/** The table plus a few lines on how to read it. */
/** The gate's refusals, newest first, each with the reason it gave (none: nothing printed). */
function refusalLines(e: Evaluation): string[] {
  const r = e.gate_refusals;
  if (r === undefined || r.total === 0) return [];
  const shown = r.newest.slice(0, 10);
  const head = `Regression gate: ${r.total} trained version${r.total === 1 ? '' : 's'} refused${r.total > shown.length ? ` (newest ${shown.length})` : ''}:`;
  return ['', head, ...shown.map((x) => `- ${x.time} step ${x.at_step} (version ${x.policy_version} kept serving): ${x.reason}`)];
}

export function formatEvaluation(e: Evaluation): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
  for (const v of e.versions) lines.push(`| ${row(v, e.serving_policy_version).join(' | ')} |`);
  if (e.versions.length === 0) lines.push('| – | 0 | no samples yet | | | | | |');
  const notes = [
    '',
    'judged: turns whose next state was judged (a sample, or a no_signal / hint_rejected drop counted as reward 0, no hint).',
    'reward mean: Student-t 95% interval; rates: Wilson 95% interval. Versions are never reused: one row is one set of weights.',
  ];
  if (e.serving_policy_version !== null) notes.push(`* serving now: version ${e.serving_policy_version}.`);
  const unversioned = reasons(e.dropped_turns_without_version);
  if (unversioned !== '–') notes.push(`Turn drops recorded without a version (older runs): ${unversioned}.`);
  if (e.oldest_turn_at !== undefined)
    notes.push(`Oldest kept turn: ${e.oldest_turn_at ?? 'none'} (storage.retention_days and openclaw-rl forget remove turns).`);
  return [...lines, ...notes, ...replayTable(e), ...refusalLines(e)].join('\n');
}
