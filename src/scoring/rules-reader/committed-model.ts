// Loads a model file that scripts/train-judge.ts wrote next to the code (reply-model.json):
// once per process, null when the file is absent (the judge then runs on its
// rules alone). The only file I/O of the offline judge's models.

import { existsSync, readFileSync } from 'node:fs';

/** A loader of the committed model at `path`: read on first call, then the same object. */
export function committedModel<T>(path: string): () => T | null {
  let model: T | null | undefined;
  return () => {
    if (model === undefined) model = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : null;
    return model;
  };
}
