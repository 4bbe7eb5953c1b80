// Kills a writing process with SIGKILL and checks that everything it acknowledged survived.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { SampleStore } from './store.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const writer = fileURLToPath(new URL('../../test/support/sample-crash-writer.ts', import.meta.url));
const ACKS_BEFORE_KILL = 120;

/** Runs the writer until it has acknowledged `n` writes, SIGKILLs it, and returns the ack lines. */
async function runAndKill(path: string, n: number): Promise<{ acks: string[]; signal: string | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, path], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const acks: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    acks.push(line);
    if (acks.length === n) child.kill('SIGKILL');
  }
  const { code, signal } = await exited;
  assert.equal(signal, 'SIGKILL', `writer should have been killed mid-way (exit code ${code}); stderr:\n${stderr}`);
  return { acks, signal };
}

test('after SIGKILL, every acknowledged turn, sample, drop and lease is recovered', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'openclaw-crash-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'samples.sqlite');
  const { acks } = await runAndKill(path, ACKS_BEFORE_KILL);
  assert.ok(acks.length >= ACKS_BEFORE_KILL);

  const store = SampleStore.open(path);
  t.after(() => store.close());
  const leasedIds: string[] = [];
  for (const ack of acks) {
    const [kind, arg] = ack.split(' ');
    if (kind === 'pending') {
      assert.notEqual(store.getTurnOutcome('crash', Number(arg)), null, `acked turn ${arg} is missing`);
    } else if (kind === 'sample') {
      assert.equal(store.getTurnOutcome('crash', Number(arg))?.status, 'samples', `acked sample of turn ${arg}`);
    } else if (kind === 'drop') {
      const outcome = store.getTurnOutcome('crash', Number(arg));
      assert.ok(outcome?.status === 'dropped' && outcome.reason === 'hint_reject', `acked drop of turn ${arg}`);
    } else if (kind === 'direct') {
      assert.equal(store.getTurnOutcome('direct', Number(arg))?.status, 'samples', `acked direct sample ${arg}`);
    } else if (kind === 'leased') {
      leasedIds.push(...(arg ?? '').split(',').filter((id) => id !== ''));
    } else {
      assert.fail(`unexpected ack line: ${ack}`);
    }
  }

  // The writer leased batches but never trained them: all of them are ready again.
  assert.ok(leasedIds.length > 0, 'the run was long enough to lease batches');
  assert.equal(store.counts().leased, 0);
  assert.ok(store.recovery.leasesReturned >= leasedIds.length);
  const ready = new Set(store.listSamples({ state: 'ready', limit: 100_000 }).map((s) => s.id));
  for (const id of leasedIds) assert.ok(ready.has(id), `leased sample ${id} is ready again`);

  // Each turn is in exactly one place: never both pending and resolved.
  for (const turn of store.pendingTurns()) {
    const samples = store.listSamples({ sessionId: 'crash', limit: 100_000 }).filter((s) => s.turnId === turn.turnId);
    assert.deepEqual(samples, [], `turn ${turn.turnId} is pending and has samples`);
  }
});
