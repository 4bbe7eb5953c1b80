// `node --import tsx scripts/train-judge.ts`: trains the offline judge's reply classifier on every
// development set (bench/judge-set/, never a sealed one) and writes
// src/scoring/rules-reader/reply-model.json. Deterministic: the same sets give the same file.
// (A hint-span ranker trained here until issue 36; its threshold chooser never found it 0.01
// better than the rules' hints, on the coding sets or the personal-assistant ones, so it went.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEVELOPMENT_SETS } from '../bench/judge-metrics.ts';
import { trainOnGroups } from '../bench/judge-train.ts';

const groups = Object.keys(DEVELOPMENT_SETS);
const dir = join(import.meta.dirname, '..', 'src', 'scoring', 'rules-reader');
// Laid out as biome formats JSON (one feature a line), so `biome check` passes on the committed files.
const row = (v: number[]) => `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
const write = (file: string, head: Record<string, number | number[]>, weights: Record<string, number[]>) => {
  const lines = Object.entries(head).map(([k, v]) => `  ${JSON.stringify(k)}: ${Array.isArray(v) ? row(v) : JSON.stringify(v)},`);
  const body = Object.entries(weights).map(([name, v]) => `    ${JSON.stringify(name)}: ${row(v)}`);
  writeFileSync(join(dir, file), `{\n${lines.join('\n')}\n  "weights": {\n${body.join(',\n')}\n  }\n}\n`);
  console.log(`wrote ${join(dir, file)}: ${body.length} features`);
};

const model = trainOnGroups(groups);
write('reply-model.json', { version: model.version, bias: model.bias }, model.weights);
