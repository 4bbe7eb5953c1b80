// `node --import tsx scripts/train-judge.ts`: trains the offline judge's reply classifier on every
// development set (bench/judge-set/, never a sealed one) and the rules' examples, and writes
// src/scoring/offline/reply-model.json. Deterministic: the same sets give the same file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEVELOPMENT_SETS } from '../bench/judge-metrics.ts';
import { trainOnGroups } from '../bench/judge-train.ts';

const model = trainOnGroups(Object.keys(DEVELOPMENT_SETS));
const path = join(import.meta.dirname, '..', 'src', 'scoring', 'offline', 'reply-model.json');
// Laid out as biome formats JSON (one feature a line), so `biome check` passes on the committed file.
const row = (v: number[]) => `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
const weights = Object.entries(model.weights).map(([name, v]) => `    ${JSON.stringify(name)}: ${row(v)}`);
writeFileSync(path, `{\n  "version": ${model.version},\n  "bias": ${row(model.bias)},\n  "weights": {\n${weights.join(',\n')}\n  }\n}\n`);
console.log(`wrote ${path}: ${Object.keys(model.weights).length} features`);
