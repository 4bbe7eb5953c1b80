// A tiny random embedded checkpoint (seconds to build) for tests of the whole loop.
import { EmbeddedEngine, trainBpe } from '../../src/engines/embedded/index.ts';
import { tempDir } from './temp.ts';

/** Writes a 1-layer d=32 model with a small BPE tokenizer to a temp folder; returns the folder. */
export async function tinyCheckpoint(ctx = 256): Promise<string> {
  const dir = tempDir('ocrl-ckpt-');
  const texts = [
    'hello there, how can I help you today?',
    'thanks, that is great!',
    'the answer is four.',
    'please be brief.',
    'Here is a **short** list:\n1. one\n2. two',
  ];
  const tokenizer = trainBpe(texts, 300);
  const engine = await EmbeddedEngine.create(
    { vocabSize: tokenizer.vocabSize, dModel: 32, nLayer: 1, nHead: 2, ctx },
    { seed: 1, tokenizer },
  );
  await engine.save(dir);
  await engine.close();
  return dir;
}
