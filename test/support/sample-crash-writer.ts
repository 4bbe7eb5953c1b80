// Child process of the crash test (src/samples/crash.test.ts): writes to a store in a tight loop
// and prints one ack line after each write returns (the acknowledgement point), until the test
// kills it with SIGKILL.
// Usage: node --import tsx test/support/sample-crash-writer.ts STORE_PATH
import { SampleStore } from '../../src/samples/store.ts';
import { makeSample, makeTurn } from './sample-fixtures.ts';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: sample-crash-writer.ts STORE_PATH');
const store = SampleStore.open(path);
// If the test runner went away, stop instead of writing forever.
process.stdout.on('error', () => process.exit(1));

const ack = (line: string) => process.stdout.write(`${line}\n`);

for (let i = 0; i < 20_000; i++) {
  store.addPendingTurn(makeTurn('crash', i));
  ack(`pending ${i}`);
  if (i > 0 && i % 2 === 0) {
    store.resolvePendingTurn({ sessionId: 'crash', turnId: i - 1 }, { kind: 'samples', samples: [makeSample('crash', i - 1)] });
    ack(`sample ${i - 1}`);
  } else if (i > 0) {
    store.resolvePendingTurn({ sessionId: 'crash', turnId: i - 1 }, { kind: 'dropped', reason: 'hint_reject' });
    ack(`drop ${i - 1}`);
  }
  store.addSample(makeSample('direct', i));
  ack(`direct ${i}`);
  if (i % 5 === 4) {
    const lease = store.leaseBatch(2);
    ack(`leased ${lease.samples.map((s) => s.id).join(',')}`);
  }
}
store.close();
