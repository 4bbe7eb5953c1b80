// The kill loop (docs/reliability.md): the real server runs in a child process against a scripted policy and
// a slow scripted judge while several clients hold conversations with explicit session ids; the
// server is SIGKILLed at random moments and restarted on the same output folder, and the clients
// go on with the same sessions and histories (a request that got no answer is sent again, as an
// agent would). At the end the server is stopped cleanly and restarted until nothing is pending
// (cut judging is re-judged at the next start), and the check runs: every turn whose
// answer a client received is in the journal, and every turn in the journal ended as exactly one
// sample or one recorded drop (nothing pending, nothing twice).
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ScriptedUpstream, scriptedRollout } from './scripted-upstream.ts';
import { judgeFallback } from './scripted-judge.ts';
import { exited, launch } from './child-server.ts';
import { rng } from '../fixtures/openclaw-like.ts';
import { contentText, readRecords } from '../../src/sessions/index.ts';
import { SampleStore } from '../../src/samples/index.ts';
import { tempDir } from './temp.ts';

/** Settings of one kill loop. */
export interface KillLoopOptions {
  kills: number;
  sessions?: number;
  /** Longest wait between a start and its kill (ms); each wait is drawn uniformly from [minUpMs, maxUpMs]. */
  minUpMs?: number;
  maxUpMs?: number;
  /** How long each judge vote takes (ms): judging is in flight at most kills. */
  judgeDelayMs?: number;
  /** Score in the scoring worker thread. */
  thread?: boolean;
  seed?: number;
  onKill?: (n: number, acked: number) => void;
}

/** What the loop saw and what the check found. */
export interface KillLoopResult {
  kills: number;
  /** Answers the clients received completely. */
  acked: number;
  /** Turn lines in the journal. */
  journalTurns: number;
  /** Acked answers with no turn line, or turns with no outcome: the "lost". */
  lost: string[];
  /** Turns with more than one outcome, or numbers used twice. */
  twice: string[];
  samples: number;
  drops: number;
  ms: number;
}

type Msg = { role: string; content: string };

/** Runs the loop; resolves with the numbers once the check is done. */
export async function runKillLoop(o: KillLoopOptions): Promise<KillLoopResult> {
  const t0 = Date.now();
  const rand = rng(o.seed ?? 1); // deterministic, so a failing seed can be run again
  const policy = await new ScriptedUpstream().start();
  const judge = await new ScriptedUpstream().start();
  policy.fallback = { kind: 'text', text: 'Sure, here you go.' };
  const judgeDelayMs = o.judgeDelayMs ?? 300;
  judge.fallback = judgeFallback((v) => ({
    kind: 'slow_first_token',
    delayMs: judgeDelayMs,
    text: v.nextState.includes('thanks') ? 'Happy. \\boxed{1}' : 'Neutral. \\boxed{0}',
  }));
  const outDir = tempDir('ocrl-killloop-');
  const spec = {
    tree: {
      rollout: scriptedRollout(policy.url),
      judge: { provider: 'openai_compatible', base_url: judge.url, model_id: 'j', timeout_s: 30 },
    },
    overrides: { output_dir: outDir, 'server.port': 0, mode: 'openclaw-rl', 'scoring.worker_thread': o.thread ?? false },
    thread: o.thread ?? false,
  };
  let server: { child: ChildProcess; url: string } | undefined;
  let up: Promise<void> = Promise.resolve();
  let stopping = false;
  let acked = 0;
  const ackedKeys: string[] = [];

  const client = async (s: number): Promise<void> => {
    const id = `kill-${s}`;
    const history: Msg[] = [];
    let q = 0;
    let pending: Msg = { role: 'user', content: `${id} q${q}` };
    while (!stopping) {
      await up;
      const url = server?.url;
      if (url === undefined) continue;
      try {
        const stream = rand() < 0.5;
        const res = await fetch(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ session_id: id, turn_type: 'main', stream, messages: [...history, pending] }),
        });
        const text = await res.text();
        const complete =
          res.status === 200 && (stream ? text.includes('data: [DONE]') && !text.includes('"error"') : text.includes('Sure, here you go.'));
        if (!complete) continue;
        acked++;
        ackedKeys.push(`${id}\u0000${pending.content}`);
        history.push(pending, { role: 'assistant', content: 'Sure, here you go.' });
        q++;
        pending = { role: 'user', content: q % 3 === 0 ? `${id} q${q} thanks` : `${id} q${q}` };
      } catch {
        // killed mid-request: the agent sends the same request again once the server is back
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };

  const start = async () => {
    server = await launch(spec);
  };
  up = start();
  await up;
  const clients = Array.from({ length: o.sessions ?? 4 }, (_, s) => client(s));
  const minUp = o.minUpMs ?? 150;
  const maxUp = o.maxUpMs ?? 1200;
  for (let k = 1; k <= o.kills; k++) {
    await new Promise((r) => setTimeout(r, minUp + rand() * (maxUp - minUp)));
    const dying = server!;
    let release!: () => void;
    up = new Promise<void>((r) => (release = r));
    server = undefined;
    dying.child.kill('SIGKILL');
    await exited(dying.child);
    o.onKill?.(k, acked);
    await start();
    release();
  }
  // Let the sessions run a little on the last server, then stop the clients and shut down cleanly.
  await new Promise((r) => setTimeout(r, 500));
  stopping = true;
  await Promise.all(clients);
  // Then clean stops: SIGTERM ends the open sessions (their last turns get no next state); judging
  // cut by a stop stays pending and is re-judged by the next start, so start again until the
  // store has nothing pending (the judge is slow: a long loop leaves a queue).
  for (let round = 0; ; round++) {
    const s = round === 0 ? server! : await launch(spec);
    const deadline = Date.now() + 60_000;
    let pending = -1;
    for (;;) {
      const h = (await (await fetch(`${s.url}/healthz`)).json()) as { scoring: { samples: { pending: number } } };
      pending = h.scoring.samples.pending;
      // Round 0: sessions are still open and at-least-one holds their judged turns until they end.
      if (pending === 0 || round === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    s.child.kill('SIGTERM');
    await exited(s.child);
    if ((round > 0 && pending === 0) || round >= 5) break;
  }
  await policy.stop();
  await judge.stop();

  // The check.
  const lost: string[] = [];
  const twice: string[] = [];
  const { turns } = readRecords(join(outDir, 'records', 'turns.jsonl'));
  const lineKeys = new Set<string>();
  const numbers = new Set<string>();
  for (const t of turns) {
    const lastUser = [...(t.messages as Msg[])].reverse().find((m) => m.role === 'user');
    lineKeys.add(`${t.session_id}\u0000${lastUser ? contentText(lastUser.content) : ''}`);
    const n = `${t.session_id}:${t.turn_id}`;
    if (numbers.has(n)) twice.push(`${n} numbered twice`);
    numbers.add(n);
  }
  for (const k of ackedKeys) if (!lineKeys.has(k)) lost.push(`answered but not in the journal: ${k.replace('\u0000', ' ')}`);
  const store = SampleStore.open(join(outDir, 'samples.sqlite'), { recoverLeases: false });
  let samples = 0;
  let drops = 0;
  try {
    for (const n of numbers) {
      const [session, turn] = [n.slice(0, n.lastIndexOf(':')), Number(n.slice(n.lastIndexOf(':') + 1))];
      const out = store.getTurnOutcome(session, turn);
      if (out === null || out.status === 'pending') lost.push(`${n}: ${out === null ? 'not in the store' : 'still pending'}`);
      else if (out.status === 'samples') {
        samples += out.samples.length;
        if (out.samples.length > 1) twice.push(`${n}: ${out.samples.length} samples`);
      } else drops++;
    }
    const total = store.countSamples();
    if (total !== samples) twice.push(`${total} samples in the store, ${samples} belong to journal turns`);
  } finally {
    store.close();
  }
  return { kills: o.kills, acked, journalTurns: turns.length, lost, twice, samples, drops, ms: Date.now() - t0 };
}
