// `node --import tsx scripts/train-judge.ts`: trains the offline judge's reply classifier on every
// development set (bench/judge-set/, never a sealed one) and the rules' examples, and writes
// src/scoring/offline/reply-model.json. Deterministic: the same sets give the same file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEVELOPMENT_SETS } from '../bench/judge-metrics.ts';
import { trainOnGroups } from '../bench/judge-train.ts';

const model = trainOnGroups(Object.keys(DEVELOPMENT_SETS));
const path = join(import.meta.dirname, '..', 'src', 'scoring', 'offline', 'reply-model.json');
writeFileSync(path, `${JSON.stringify(model)}\n`);
console.log(`wrote ${path}: ${Object.keys(model.weights).length} features`);
