// `npm run bench:sigterm`: SIGTERM → exit of `openclaw-rl api-server` with a judge call that never
// answers and a stream in flight (test/support/sigterm-scenario.ts), for a few grace periods.
// Target: exit ≤ server.shutdown_grace_s + 1 s; the stream ends with an error event and
// [DONE]. SIGTERM_GRACES (default "0,2,10") lists the grace periods, in seconds.
import { ScriptedUpstream } from '../test/support/scripted-upstream.ts';
import { sigtermScenario } from '../test/support/sigterm-scenario.ts';

const graces = (process.env.SIGTERM_GRACES ?? '0,2,10').split(',').map(Number);
if (graces.some((g) => !Number.isFinite(g) || g < 0))
  throw new Error(`SIGTERM_GRACES must be non-negative numbers, got "${process.env.SIGTERM_GRACES}"`);

const policy = await new ScriptedUpstream().start();
const judge = await new ScriptedUpstream().start();
let missed = 0;
console.log('grace_s  exit_s  over_grace_s  exit_code  judge_calls_in_flight  stream_end');
try {
  for (const grace of graces) {
    const r = await sigtermScenario(policy, judge, grace);
    const over = r.exitS - grace;
    if (over > 1 || r.exitCode !== 0 || !r.streamEndedCleanly) missed++;
    console.log(
      `${String(grace).padStart(7)} ${r.exitS.toFixed(2).padStart(7)} ${over.toFixed(2).padStart(13)} ${String(r.exitCode).padStart(10)} ${String(r.judgeCallsInFlight).padStart(22)}  ${r.streamEndedCleanly ? `error event (${r.streamErrorCode}) + [DONE]` : 'CUT without error event'}`,
    );
  }
} finally {
  await policy.stop();
  await judge.stop();
}
console.log(
  missed === 0
    ? 'target met: every exit within grace + 1 s, every stream ended with an error event and [DONE]'
    : `target MISSED in ${missed} run(s)`,
);
if (missed > 0) process.exitCode = 1;
