// Child process for the SIGKILL resume test: runs the Trainer with a TinkerEngine against the
// Tinker server at argv[2] (base model argv[5]), output dir argv[3], for up to argv[4] steps,
// printing "step N" lines.
import { join } from 'node:path';
import { tinkerEngineFromConfig } from '../../src/engines/tinker/index.ts';
import { SampleStore } from '../../src/samples/index.ts';
import { Trainer } from '../../src/trainer/index.ts';
import { childConfig } from './tinker-child-config.ts';

const [url, out, steps, baseModel] = process.argv.slice(2);
const config = childConfig(url, out, baseModel);
const store = SampleStore.open(join(out, 'samples.sqlite'));
const trainer = new Trainer({ engine: tinkerEngineFromConfig(config), store, config });
for (let i = 0; i < Number(steps); i++) {
  const m = await trainer.trainOnce();
  process.stdout.write(`step ${m?.step}\n`);
}
process.exit(0);
