// The kill test of `forget` (issue 38): the real server runs in a child process; each round plants
// a marker in a new session (some of its turns judged, the last still pending with a slow judge),
// asks DELETE /sessions/:id and SIGKILLs the server at a random moment — before, during or after
// the forget; the server pauses between the forget's steps (ServerHooks.onForgetStep) so that
// kills land inside each of them — then starts it again on the same folder. A forget the client saw acknowledged, or
// that the store had recorded, must be complete after the restart without being asked again; an
// unacknowledged one is asked again, as a user would. At the end no marker is found in any byte of
// any file under the output folder, and every other session still has every turn it had.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { ScriptedUpstream, scriptedRollout } from './scripted-upstream.ts';
import { judgeFallback } from './scripted-judge.ts';
import { exited, launch } from './child-server.ts';
import { rng } from '../fixtures/openclaw-like.ts';
import { SampleStore } from '../../src/samples/index.ts';
import { readRecords } from '../../src/sessions/index.ts';
import { tempDir } from './temp.ts';

/** Settings of one run. */
export interface ForgetKillOptions {
  rounds: number;
  seed?: number;
  /** Longest wait after the DELETE is sent before the kill (ms; default 100). */
  maxKillMs?: number;
  /** Pause between the forget's steps in the server (ms; default 15), so kills land inside each step. */
  stepPauseMs?: number;
  onRound?: (round: number, what: string) => void;
}

/** What the run found. */
export interface ForgetKillResult {
  rounds: number;
  /** Kills that landed before the server answered the DELETE. */
  killedBeforeAnswer: number;
  /** Of those, forgets the restart finished on its own (the store had recorded them). */
  finishedByRestart: number;
  /** Files still holding a forgotten session's marker (must be empty). */
  leaks: string[];
  /** Turns of kept sessions that went missing (must be empty). */
  lost: string[];
  keptTurns: number;
  ms: number;
}

const KEY = 'forget-kill-key';
const auth = { authorization: `Bearer ${KEY}` };

/** Files under `dir` whose bytes contain `marker`. */
export function filesHolding(dir: string, marker: string): string[] {
  const needle = Buffer.from(marker, 'utf8');
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (readFileSync(p).includes(needle)) hits.push(p);
    }
  };
  walk(dir);
  return hits;
}

async function chat(url: string, session: string, history: { role: string; content: string }[], text: string): Promise<void> {
  history.push({ role: 'user', content: text });
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify({ session_id: session, turn_type: 'main', messages: history }),
  });
  const body = (await res.json()) as { choices?: { message: { content: string } }[] };
  if (res.status !== 200) throw new Error(`${session}: HTTP ${res.status} ${JSON.stringify(body)}`);
  history.push({ role: 'assistant', content: body.choices![0].message.content });
}

/** The kept sessions' turns that are missing: from the journal, or (for judged ones) from the store. */
function missingKeptTurns(outDir: string, rounds: number): string[] {
  const inJournal = new Set(readRecords(join(outDir, 'records', 'turns.jsonl')).turns.map((t) => `${t.session_id}:${t.turn_id}`));
  const store = SampleStore.open(join(outDir, 'samples.sqlite'), { readOnly: true });
  try {
    const missing: string[] = [];
    for (let r = 1; r <= rounds; r++) {
      for (const t of [1, 2]) if (!inJournal.has(`keep-${r}:${t}`)) missing.push(`keep-${r}:${t} not in the journal`);
      // Turn 1 got its next state when turn 2 came: it was stored then.
      if (store.getTurnOutcome(`keep-${r}`, 1) === null) missing.push(`keep-${r}:1 not in the store`);
    }
    return missing;
  } finally {
    store.close();
  }
}

/** Runs the rounds; resolves with the numbers once the check is done. */
export async function runForgetKill(o: ForgetKillOptions): Promise<ForgetKillResult> {
  const t0 = Date.now();
  const rand = rng(o.seed ?? 7);
  const policy = await new ScriptedUpstream().start();
  const judge = await new ScriptedUpstream().start();
  policy.fallback = { kind: 'text', text: 'Done, noted.' };
  judge.fallback = judgeFallback(() => ({ kind: 'slow_first_token', delayMs: 150, text: 'Fine. \\boxed{1}' }));
  const outDir = tempDir('ocrl-forgetkill-');
  const spec = {
    forgetStepPauseMs: o.stepPauseMs ?? 15,
    tree: {
      rollout: scriptedRollout(policy.url),
      judge: { provider: 'openai_compatible', base_url: judge.url, model_id: 'j', timeout_s: 30 },
    },
    overrides: {
      output_dir: outDir,
      'server.port': 0,
      'server.api_key': KEY,
      mode: 'openclaw-rl',
      // Small segments: a forget scrubs several files of the journal.
      'storage.records_segment_mb': 0.02,
    },
  };
  let server: { child: ChildProcess; url: string } = await launch(spec);
  const markers: string[] = [];
  const roundLeaks: string[] = [];
  let killedBeforeAnswer = 0;
  let finishedByRestart = 0;
  try {
    for (let r = 1; r <= o.rounds; r++) {
      const marker = `Plumtree${r}x${Math.floor(rand() * 1e6)}`;
      const target = `forget-${r}`;
      markers.push(marker);
      // A session to keep and one to forget, the latter with turns judged and one still pending.
      const keep: { role: string; content: string }[] = [];
      const gone: { role: string; content: string }[] = [];
      await chat(server.url, `keep-${r}`, keep, `Round ${r}: add milk to the list`);
      await chat(server.url, target, gone, `My passport number is ${marker}, remember it`);
      await chat(server.url, target, gone, `Thanks. Also ${marker} expires in May`);
      await chat(server.url, `keep-${r}`, keep, 'Thanks, and eggs');
      await new Promise((res) => setTimeout(res, 200 + rand() * 200)); // the first turn gets judged
      await chat(server.url, target, gone, `Book the visa appointment for ${marker}`);
      // The forget, and a kill at a random moment around it.
      let answered = false;
      const del = fetch(`${server.url}/sessions/${target}`, { method: 'DELETE', headers: auth })
        .then(async (res) => {
          if (res.status !== 200) throw new Error(`DELETE ${target}: HTTP ${res.status} ${await res.text()}`);
          answered = true;
        })
        .catch((err: Error) => {
          if (!/fetch failed|socket|ECONNRESET|other side closed/i.test(String(err.message) + String(err.cause))) throw err;
        });
      await new Promise((res) => setTimeout(res, rand() * (o.maxKillMs ?? 100)));
      server.child.kill('SIGKILL');
      await exited(server.child);
      await del;
      server = await launch(spec);
      const recorded = !answered && storeForgot(outDir, target);
      if (!answered) killedBeforeAnswer++;
      if (recorded) finishedByRestart++;
      if (!answered && !recorded) {
        const res = await fetch(`${server.url}/sessions/${target}`, { method: 'DELETE', headers: auth });
        if (res.status !== 200) throw new Error(`DELETE ${target} after the restart: HTTP ${res.status} ${await res.text()}`);
      }
      // Checked at once, before any later forget could finish this one.
      for (const f of filesHolding(outDir, marker)) roundLeaks.push(`round ${r}: ${marker} in ${f.slice(outDir.length + 1)}`);
      o.onRound?.(r, answered ? 'acknowledged before the kill' : recorded ? 'finished by the restart' : 'asked again after the restart');
    }
  } finally {
    server.child.kill('SIGTERM');
    await exited(server.child);
    await policy.stop();
    await judge.stop();
  }
  const leaks = [
    ...roundLeaks,
    ...markers.flatMap((m) => filesHolding(outDir, m).map((f) => `at the end, ${m}: ${f.slice(outDir.length + 1)}`)),
  ];
  const lost = missingKeptTurns(outDir, o.rounds);
  return { rounds: o.rounds, killedBeforeAnswer, finishedByRestart, leaks, lost, keptTurns: 2 * o.rounds, ms: Date.now() - t0 };
}

/** True when the store has recorded the session as forgotten. */
function storeForgot(outDir: string, sessionId: string): boolean {
  const store = SampleStore.open(join(outDir, 'samples.sqlite'), { readOnly: true });
  try {
    return store.forgottenSessions().has(sessionId);
  } finally {
    store.close();
  }
}
