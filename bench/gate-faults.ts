// `npm run bench:gate -- --faults`: the regression gate against faults it must catch and healthy
// training it must let through (issue 37), on the demo's learning loop: embedded policy and
// teacher, rules judge, the no-markdown simulated user, openclaw-combine, 8 lockstep steps,
// evaluation.holdout_fraction 0.25, `gate: {}` (the defaults) against no gate, same seeds.
// Prints, per case and seed: versions served, refusals, the held-out rating of the version serving
// at the end (the base's is step 0's), the share of its answers to 20 held-out prompts that are not
// answers (garbled or empty: the rating cannot see it), the last verdict, and wall time (gated vs
// not: what the gate adds). Knobs: BENCH_CASES (all: healthy,lr-x30,lr-x100,lr-x1000,inverted,shuffled-ids,batch-x20), BENCH_SEEDS (1,2,3), BENCH_GATED
// (1,0: with and without the gate), BENCH_STEPS (8); cases also inverted, shuffled-ids, batch-x20,
// healthy-no-probes (the gate without its probe check: what the check costs).
// Faults injected into the engine's training step: inverted advantages, shuffled token ids, one batch
// trained 20 times. With the gate on, each step line's probe check numbers follow (candidate / serving).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TRAINING, learn } from '../src/demo/index.ts';
import type { PolicyEngine, TrainOptions, TrainSample } from '../src/engines/types.ts';
import { garbledReason } from '../src/evaluation/index.ts';
import { HELD_OUT_TASKS } from '../src/sim/index.ts';

/**
 * The share of answers that are not answers (evaluation/garbled.ts, or empty) from the version
 * serving at `url`, on `n` held-out prompts: the persona's rating cannot see it (a no-markdown
 * user likes garbage without markdown).
 */
async function garbleRate(url: string, model: string, n: number): Promise<number> {
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        messages: [{ role: 'user', content: HELD_OUT_TASKS[i % HELD_OUT_TASKS.length].prompt }],
        seed: i,
        turn_type: 'side',
      }),
    });
    const text = ((await res.json()) as { choices?: { message?: { content?: string } }[] }).choices?.[0]?.message?.content ?? '';
    if (text.trim() === '' || garbledReason(text) !== null) bad++;
  }
  return bad / n;
}

const LR = DEMO_TRAINING['training.lr'] as number;

/** A fault injected into the engine's training step (the store and the trainer are left as they are). */
type Fault = (engine: PolicyEngine) => void;

function wrapTrainStep(
  engine: PolicyEngine,
  f: (train: PolicyEngine['trainStep'] & {}, samples: TrainSample[], opts: TrainOptions) => ReturnType<PolicyEngine['trainStep'] & {}>,
) {
  const original = engine.trainStep!.bind(engine);
  engine.trainStep = (samples, opts) => f(original, samples, opts);
}

/** Every advantage negated: the liked answers are pushed down, the disliked up. */
const inverted: Fault = (e) =>
  wrapTrainStep(e, (train, samples, opts) =>
    train(
      samples.map((s) => ({ ...s, advantages: s.advantages.map((a) => -a) })),
      opts,
    ),
  );

/** A corrupted store: each answer's token ids in a shuffled order (fixed per answer), trained as they come. */
const shuffledIds: Fault = (e) =>
  wrapTrainStep(e, (train, samples, opts) =>
    train(
      samples.map((s) => {
        const ids = [...s.responseIds];
        for (let i = ids.length - 1; i > 0; i--) {
          const j = (i * 7919 + ids.length) % (i + 1);
          [ids[i], ids[j]] = [ids[j], ids[i]];
        }
        return { ...s, responseIds: ids };
      }),
      opts,
    ),
  );

/** The same batch trained 20 times over (a lease that is never settled, replayed). */
const repeatX20: Fault = (e) =>
  wrapTrainStep(e, async (train, samples, opts) => {
    let last = await train(samples, opts);
    for (let i = 1; i < 20; i++) last = await train(samples, opts);
    return last;
  });

const CASES: Record<string, { overrides?: Record<string, unknown>; fault?: Fault }> = {
  healthy: {},
  // The same, without the probe check: what the check costs in wall time.
  'healthy-no-probes': { overrides: { 'evaluation.gate.probes.enabled': false } },
  'lr-x30': { overrides: { 'training.lr': LR * 30 } },
  'lr-x100': { overrides: { 'training.lr': LR * 100 } },
  'lr-x1000': { overrides: { 'training.lr': LR * 1000 } },
  inverted: { fault: inverted },
  'shuffled-ids': { fault: shuffledIds },
  'batch-x20': { fault: repeatX20 },
};
const list = (v: string | undefined, d: string) =>
  (v ?? d)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const cases = list(process.env.BENCH_CASES, Object.keys(CASES).join(','));
for (const c of cases)
  if (CASES[c] === undefined) throw new Error(`BENCH_CASES: unknown case ${c}; known: ${Object.keys(CASES).join(', ')}`);
const seeds = list(process.env.BENCH_SEEDS, '1,2,3').map(Number);
const gatedRuns = list(process.env.BENCH_GATED, '1,0').map((g) => g === '1');
const steps = Number(process.env.BENCH_STEPS ?? 8);

console.log('case | seed | gate | served version | refusals | rating base → end | garbled answers at the end | wall s | last verdict');
for (const seed of seeds) {
  for (const name of cases) {
    for (const gated of gatedRuns) {
      const t0 = performance.now();
      const outputDir = mkdtempSync(join(tmpdir(), 'ocrl-gate-faults-'));
      const r = await learn({
        outputDir,
        mode: 'openclaw-combine',
        persona: 'no-markdown',
        steps,
        seed,
        evalSamples: 30,
        lockstep: true,
        concurrency: 2,
        maxEpisodes: 400,
        keepServing: true,
        overrides: { 'evaluation.holdout_fraction': 0.25, ...(gated ? { 'evaluation.gate': {} } : {}), ...CASES[name].overrides },
        onServer: (server) => CASES[name].fault?.(server.engine!),
      });
      const trainer = r.server!.trainer!;
      const end = r.ratings[Math.max(...Object.keys(r.ratings).map(Number))];
      const models = (await (await fetch(`${r.server!.url}/v1/models`)).json()) as { data: { id: string }[] };
      const garbled = await garbleRate(r.server!.url, models.data[0].id, 20);
      console.log(
        [
          name,
          seed,
          gated ? 'on' : 'off',
          r.server!.channel.version(),
          gated ? trainer.gateRefusals : '-',
          `${r.ratings[0].toFixed(2)} → ${end.toFixed(2)}`,
          `${(garbled * 100).toFixed(0)}%`,
          ((performance.now() - t0) / 1000).toFixed(0),
          gated ? (trainer.lastGate?.reason ?? '-') : '-',
        ].join(' | '),
      );
      await r.server!.close();
      // The probe check's numbers per step (candidate / serving): what its limits are set against.
      const probeSteps = readFileSync(join(outputDir, 'logs', 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, number>)
        .filter((m) => m.gate_passed !== undefined);
      const f = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(2));
      for (const m of probeSteps)
        console.log(
          `    step ${m.step}: batch gain ${f(m.gate_batch_gain)}, batch liked−disliked ${f(m.gate_batch_direction)} (bound ${f(m.gate_batch_direction_bound)}), probe kl ${f(m.gate_probe_kl)}, not answers ${f(m.gate_probe_not_answers)}/${f(m.gate_probe_not_answers_serving)}, entropy ${f(m.gate_probe_entropy)}/${f(m.gate_probe_entropy_serving)}, length ${f(m.gate_probe_length)}/${f(m.gate_probe_length_serving)}, step ${f(m.step_time_s)} s (gate ${f(m.gate_time_s)} s, probes ${f(m.gate_probe_time_s)} s), passed ${m.gate_passed}`,
        );
      // What the gate costs, measured in the same steps: its checks' wall time against the rest of the step.
      const gateS = probeSteps.reduce((a, m) => a + (m.gate_time_s ?? 0), 0);
      const stepS = probeSteps.reduce((a, m) => a + m.step_time_s, 0);
      if (probeSteps.length > 0)
        console.log(
          `    gate cost: ${(gateS / probeSteps.length).toFixed(2)} s per step, ${((100 * gateS) / (stepS - gateS)).toFixed(0)}% on top of the step without it (${((stepS - gateS) / probeSteps.length).toFixed(2)} s)`,
        );
      rmSync(outputDir, { recursive: true, force: true });
    }
  }
}
