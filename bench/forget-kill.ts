// `npm run bench:forget-kill [-- --rounds N --seed S --max-kill-ms M --step-pause-ms P]`: the kill test of forget
// (test/support/forget-kill.ts) at full length. Each round plants a marker in a session, forgets it
// with DELETE /sessions/:id and SIGKILLs the server at a random moment (0–M ms after the request;
// the server pauses P ms between the forget's steps so kills land inside each), then restarts it. Prints how the kills fell and what was found; exits 1 on any leak or loss.
// Target: leaks=0 lost=0.
import { parseArgs } from 'node:util';
import { runForgetKill } from '../test/support/forget-kill.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '30' },
    seed: { type: 'string', default: '7' },
    'max-kill-ms': { type: 'string', default: '100' },
    'step-pause-ms': { type: 'string', default: '15' },
  },
});
const num = (name: string, v: string | undefined, min: number): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, not ${JSON.stringify(v)}`);
  return n;
};
const r = await runForgetKill({
  rounds: num('rounds', values.rounds, 1),
  seed: num('seed', values.seed, 0),
  maxKillMs: num('max-kill-ms', values['max-kill-ms'], 0),
  stepPauseMs: num('step-pause-ms', values['step-pause-ms'], 0),
  onRound: (k, what) => process.stderr.write(`round ${k}: ${what}\n`),
});
process.stdout.write(
  `forget kill test: rounds=${r.rounds} killed_before_answer=${r.killedBeforeAnswer} finished_by_restart=${r.finishedByRestart} ` +
    `kept_turns=${r.keptTurns} leaks=${r.leaks.length} lost=${r.lost.length} seconds=${(r.ms / 1000).toFixed(1)}\n`,
);
for (const l of [...r.leaks, ...r.lost].slice(0, 20)) process.stdout.write(`  ${l}\n`);
process.exitCode = r.leaks.length + r.lost.length === 0 ? 0 : 1;
