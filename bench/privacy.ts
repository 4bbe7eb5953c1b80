// `npm run bench:privacy`: secret and personal-data detectors scored on the blind labelled sets of
// bench/privacy-set/ (issue 38). A gold finding counts as found when a detected span overlaps it.
// Prints per detector: secret recall, personal-data recall (the types the issue names — e-mail,
// phone, card, IBAN, government id — and, apart, IP addresses, street addresses and names), the
// share of hard negatives with any finding (false positives), spans on positives that overlap no
// gold finding, per-type recall, and the time per item. Candidates from npm are scored when
// installed (`npm i --no-save @secretlint/core @secretlint/secretlint-rule-preset-recommend
// @openredaction/openredaction`), skipped with that hint otherwise.
// PRIVACY_SET (default dev-1; heldout-1 is sealed: score it once), PRIVACY_MISSES=N prints N misses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detect } from '../src/privacy/index.ts';

interface Span {
  type: string;
  start: number;
  end: number;
}
interface Item {
  id: string;
  source: string;
  text: string;
  findings: Span[];
  negative_kind: string | null;
}
interface Candidate {
  name: string;
  detect(text: string): Promise<Span[]> | Span[];
}

const SET = process.env.PRIVACY_SET ?? 'dev-1';
const MISSES = Number(process.env.PRIVACY_MISSES ?? 0);
const PERSONAL_CORE = new Set(['email', 'phone', 'card_number', 'iban', 'gov_id']);
const PERSONAL_OTHER = new Set(['ip_address', 'street_address', 'person_name']);
const isPersonal = (t: string) => PERSONAL_CORE.has(t) || PERSONAL_OTHER.has(t);

function load(name: string): Item[] {
  return readFileSync(join(import.meta.dirname, 'privacy-set', `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Item);
}

async function optional<T>(pkg: string, build: (mod: any) => T | Promise<T>): Promise<T | string> {
  try {
    return await build(await import(pkg));
  } catch (err) {
    return `${pkg} not installed (${(err as Error).message.split('\n')[0]})`;
  }
}

/** secretlint with its recommended preset: each message's range is a finding. */
async function secretlint(): Promise<Candidate | string> {
  return optional('@secretlint/core', async (core) => {
    const presetName = '@secretlint/secretlint-rule-preset-recommend';
    const preset = (await import(presetName)).creator;
    const options = { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset }] }, maskSecrets: false };
    return {
      name: 'secretlint 13 (preset-recommend)',
      async detect(text: string) {
        const r = await core.lintSource({ source: { filePath: '/turn.txt', content: text, contentType: 'text' }, options });
        return r.messages.map((m: { ruleId: string; range: [number, number] }) => ({ type: m.ruleId, start: m.range[0], end: m.range[1] }));
      },
    };
  });
}

/** OpenRedaction's default patterns: each detection's position is a finding. */
async function openredaction(): Promise<Candidate | string> {
  return optional('@openredaction/openredaction', (mod) => {
    const o = new mod.OpenRedaction();
    return {
      name: 'openredaction 1 (defaults)',
      async detect(text: string) {
        const r = await o.detect(text);
        return (r.detections ?? []).map((d: { type: string; position: [number, number] }) => ({
          type: d.type,
          start: d.position[0],
          end: d.position[1],
        }));
      },
    };
  });
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

interface Score {
  name: string;
  found: Map<string, [number, number]>;
  negativesHit: number;
  negatives: number;
  spurious: number;
  predicted: number;
  ms: number[];
  misses: string[];
  falseAlarms: string[];
}

async function score(c: Candidate, items: Item[]): Promise<Score> {
  const s: Score = {
    name: c.name,
    found: new Map(),
    negativesHit: 0,
    negatives: 0,
    spurious: 0,
    predicted: 0,
    ms: [],
    misses: [],
    falseAlarms: [],
  };
  for (const item of items) {
    const t0 = performance.now();
    const spans = await c.detect(item.text);
    s.ms.push(performance.now() - t0);
    s.predicted += spans.length;
    if (item.findings.length === 0) {
      s.negatives++;
      if (spans.length > 0) {
        s.negativesHit++;
        s.falseAlarms.push(
          `${item.id} [${item.negative_kind}] ${spans.map((p) => `${p.type}:${JSON.stringify(item.text.slice(p.start, p.end)).slice(0, 60)}`).join(' ')}`,
        );
      }
      continue;
    }
    for (const g of item.findings) {
      const hit = spans.some((p) => overlaps(p, g));
      const [n, k] = s.found.get(g.type) ?? [0, 0];
      s.found.set(g.type, [n + 1, k + (hit ? 1 : 0)]);
      if (!hit) s.misses.push(`${item.id} ${g.type}: ${JSON.stringify(item.text.slice(g.start, g.end)).slice(0, 80)}`);
    }
    s.spurious += spans.filter((p) => !item.findings.some((g) => overlaps(p, g))).length;
  }
  return s;
}

function recall(s: Score, keep: (type: string) => boolean): string {
  let n = 0;
  let k = 0;
  for (const [type, [a, b]] of s.found)
    if (keep(type)) {
      n += a;
      k += b;
    }
  return n === 0 ? '-' : `${(k / n).toFixed(2)} (${k}/${n})`;
}

async function main(): Promise<void> {
  const items = load(SET);
  const built = process.env.PRIVACY_ONLY_OURS ? [] : [await secretlint(), await openredaction()];
  const ours: Candidate = { name: 'openclaw-rl (src/privacy)', detect };
  const candidates = [ours, ...built.filter((c): c is Candidate => typeof c !== 'string')];
  for (const c of built) if (typeof c === 'string') console.log(`skipped: ${c}`);
  console.log(`bench:privacy — ${SET}: ${items.length} items, ${items.filter((i) => i.findings.length === 0).length} hard negatives`);
  console.log(
    'detector | secret recall | personal recall (email, phone, card, IBAN, gov id) | IP / address / name recall | negatives flagged | spans on positives outside gold | ms per item (mean / p95)',
  );
  const scores: Score[] = [];
  for (const c of candidates) {
    const s = await score(c, items);
    scores.push(s);
    const sorted = [...s.ms].sort((a, b) => a - b);
    const mean = s.ms.reduce((a, b) => a + b, 0) / s.ms.length;
    console.log(
      [
        s.name,
        recall(s, (t) => !isPersonal(t)),
        recall(s, (t) => PERSONAL_CORE.has(t)),
        recall(s, (t) => PERSONAL_OTHER.has(t)),
        `${((100 * s.negativesHit) / s.negatives).toFixed(1)}% (${s.negativesHit}/${s.negatives})`,
        `${s.spurious} of ${s.predicted}`,
        `${mean.toFixed(2)} / ${sorted[Math.floor(0.95 * (sorted.length - 1))].toFixed(2)}`,
      ].join(' | '),
    );
  }
  for (const s of scores) {
    const perType = [...s.found.entries()].sort((a, b) => b[1][0] - a[1][0]).map(([t, [n, k]]) => `${t} ${k}/${n}`);
    console.log(`\n${s.name} per type: ${perType.join(', ')}`);
    if (MISSES > 0) {
      console.log(`  misses:\n    ${s.misses.slice(0, MISSES).join('\n    ')}`);
      console.log(`  negatives flagged:\n    ${s.falseAlarms.slice(0, MISSES).join('\n    ')}`);
    }
  }
}

await main();
