// `node --import tsx scripts/train-judge.ts [--reply | --hint]`: trains the offline judge's reply
// classifier and its hint-span ranker on every development set (bench/judge-set/, never a sealed
// one) and writes src/scoring/offline/reply-model.json and hint-model.json (`--reply` / `--hint`:
// only that one). The ranker's thresholds are chosen by leaving one author group out first.
// Deterministic: the same sets give the same files.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEVELOPMENT_SETS } from '../bench/judge-metrics.ts';
import { chooseHintThresholds, hintOutcomesByGroup, trainHintOnGroups, trainOnGroups } from '../bench/judge-train.ts';

const groups = Object.keys(DEVELOPMENT_SETS);
const only = process.argv.includes('--reply') ? 'reply' : process.argv.includes('--hint') ? 'hint' : null;
const dir = join(import.meta.dirname, '..', 'src', 'scoring', 'offline');
// Laid out as biome formats JSON (one feature a line), so `biome check` passes on the committed files.
const row = (v: number[]) => `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
const write = (file: string, head: Record<string, number | number[]>, weights: Record<string, number[]>) => {
  const lines = Object.entries(head).map(([k, v]) => `  ${JSON.stringify(k)}: ${Array.isArray(v) ? row(v) : JSON.stringify(v)},`);
  const body = Object.entries(weights).map(([name, v]) => `    ${JSON.stringify(name)}: ${row(v)}`);
  writeFileSync(join(dir, file), `{\n${lines.join('\n')}\n  "weights": {\n${body.join(',\n')}\n  }\n}\n`);
  console.log(`wrote ${join(dir, file)}: ${body.length} features`);
};

if (only !== 'hint') {
  const model = trainOnGroups(groups);
  write('reply-model.json', { version: model.version, bias: model.bias }, model.weights);
}
if (only !== 'reply') {
  const { thresholds, table } = chooseHintThresholds(hintOutcomesByGroup());
  console.log(table.join('\n'));
  console.log(`chosen: replace ≥ ${thresholds.replaceAt}, add ≥ ${thresholds.addAt}`);
  const model = trainHintOnGroups(groups, thresholds);
  write('hint-model.json', { version: model.version, replaceAt: model.replaceAt, addAt: model.addAt, bias: model.bias }, model.weights);
}
