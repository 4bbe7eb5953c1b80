// `npm run bench:killloop [-- --kills N --sessions S --thread]`: the kill loop (docs/reliability.md) at full
// length (test/support/killloop.ts; the suite runs a short one). The server is SIGKILLed N times
// (default 24) at random moments while S sessions (default 4) continue across the restarts,
// against a slow scripted judge; then every answered turn must be in the journal and every turn
// in the journal must end as exactly one sample or drop. Prints the counts; exits 1 on any loss.
// Target: 0 lost, 0 twice.
import { parseArgs } from 'node:util';
import { runKillLoop } from '../test/support/killloop.ts';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '24' },
    sessions: { type: 'string', default: '4' },
    seed: { type: 'string', default: '1' },
    'judge-delay-ms': { type: 'string', default: '400' },
    thread: { type: 'boolean', default: false },
  },
});
const num = (name: string, v: string | undefined, min: number): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, not ${JSON.stringify(v)}`);
  return n;
};
const kills = num('kills', values.kills, 1);
const r = await runKillLoop({
  kills,
  sessions: num('sessions', values.sessions, 1),
  seed: num('seed', values.seed, 0),
  judgeDelayMs: num('judge-delay-ms', values['judge-delay-ms'], 0),
  thread: values.thread,
  onKill: (k, acked) => process.stderr.write(`kill ${k}/${kills}: ${acked} answers so far\n`),
});
process.stdout.write(
  `kill loop (${values.thread ? 'scoring in the worker thread' : 'scoring on the main thread'}): ` +
    `kills=${r.kills} answered=${r.acked} journal_turns=${r.journalTurns} samples=${r.samples} drops=${r.drops} ` +
    `lost=${r.lost.length} twice=${r.twice.length} seconds=${(r.ms / 1000).toFixed(1)}\n`,
);
for (const l of [...r.lost, ...r.twice].slice(0, 20)) process.stdout.write(`  ${l}\n`);
process.exitCode = r.lost.length + r.twice.length === 0 ? 0 : 1;
