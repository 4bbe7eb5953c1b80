// Child process for the crash test: appends `turn` records forever, printing "ack <n>" on stdout
// after each append returns, until it is killed. Usage: append-child.ts <records file>
import { RecordWriter } from '../../src/sessions/records.ts';

const writer = new RecordWriter(process.argv[2]);
const filler = 'y'.repeat(20_000); // large lines make a kill during a write likely
for (let n = 1; ; n++) {
  writer.append({
    type: 'turn',
    session_id: 'crash',
    turn_id: n,
    messages: [{ role: 'user', content: filler }],
    response: { role: 'assistant', content: `answer ${n}` },
    response_text: `answer ${n}`,
    finish_reason: 'stop',
    policy_version: 0,
    started_at: new Date(0).toISOString(),
    completed_at: new Date(0).toISOString(),
  });
  process.stdout.write(`ack ${n}\n`);
  if (n % 50 === 0) await new Promise((r) => setImmediate(r)); // let stdout drain
}
