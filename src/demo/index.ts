// `openclaw-rl demo`: the whole loop on this machine in a few minutes — embedded policy and
// teacher, rules judge, gateway on a free port, background trainer — with a simulated persona
// talking to it. Prints progress and a Base vs Updated table like the OpenClaw-RL paper's, and
// where the run's logs, records, metrics and dashboard are.
import { join } from 'node:path';
import { evaluationOfRun, formatEvaluation } from '../evaluation/index.ts';
import type { Mode } from '../methods/index.ts';
import { createPersona } from '../sim/index.ts';
import { learn, type DemoEngine, type LearnOptions, type LearnResult, type ProgressEvent } from './learn.ts';

export {
  learn,
  learnConfig,
  tinkerOverrides,
  DEMO_TRAINING,
  DEMO_TINKER_MODEL,
  type DemoEngine,
  type LearnOptions,
  type LearnResult,
  type ProgressEvent,
} from './learn.ts';

/** Options of the demo command. */
export interface DemoOptions {
  mode: Mode;
  persona: string;
  steps: number;
  seed?: number;
  outputDir?: string;
  evalSamples?: number;
  keepServing?: boolean;
  /** 'tinker': train through the Tinker API on an embedded Tinker server (default 'embedded'). */
  engine?: DemoEngine;
  overrides?: Record<string, unknown>;
  out?: NodeJS.WritableStream;
}

function progressPrinter(out: NodeJS.WritableStream, steps: number): (e: ProgressEvent) => void {
  const tty = (out as { isTTY?: boolean }).isTTY === true;
  return (e) => {
    if (e.kind === 'tinker') out.write(`tinker: embedded Tinker server at ${e.url}/api/v1 (base_model openclaw-rl-embedded)\n`);
    else if (e.kind === 'server') out.write(`server: ${e.url}/v1   dashboard: ${e.url}/dashboard\n`);
    else if (e.kind === 'eval')
      out.write(`${tty ? '\r\x1b[K' : ''}rating after ${stepsText(e.step)}: ${e.rating.toFixed(2)} (${e.n} held-out answers)\n`);
    else if (e.kind === 'step') {
      const m = e.metrics;
      out.write(
        `${tty ? '\r\x1b[K' : ''}step ${m.step}/${steps}  reward_mean=${m.reward_mean.toFixed(2)}  effective_sample_rate=${m.effective_sample_rate.toFixed(2)}  hint_accept_rate=${(m.hint_accept_rate ?? 0).toFixed(2)}  pg_clipfrac=${m.pg_clipfrac.toFixed(3)}  ${m.step_time_s.toFixed(1)}s\n`,
      );
    } else if (e.kind === 'episode' && tty) {
      const filled = Math.min(20, Math.round((20 * e.samplesReady) / e.batchSize));
      out.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(20 - filled)}] ${e.samplesReady}/${e.batchSize} samples toward step ${e.step + 1} · ${e.done} episodes`,
      );
    }
  };
}

/** "1 step", "8 steps". */
export function stepsText(n: number): string {
  return `${n} step${n === 1 ? '' : 's'}`;
}

/** The Base vs Updated table. */
export function formatDemoTable(r: LearnResult, steps: number): string {
  const steps4 = Object.keys(r.ratings)
    .map(Number)
    .filter((s) => s > 0 && s < steps)
    .sort((a, b) => a - b);
  const cols = [
    ['Base', r.ratings[0]],
    ...steps4.map((s) => [stepsText(s), r.ratings[s]] as const),
    [`Updated (${stepsText(steps)})`, r.ratings[steps]],
  ] as Array<readonly [string, number | undefined]>;
  const head = `| persona | method | ${cols.map((c) => c[0]).join(' | ')} |`;
  const sep = `|${'---|'.repeat(cols.length + 2)}`;
  const row = `| ${r.persona} | ${r.mode} | ${cols.map((c) => (c[1] === undefined ? '–' : c[1].toFixed(2))).join(' | ')} |`;
  return [head, sep, row].join('\n');
}

/**
 * The live evaluation of the run (judged turns per policy version, from its sample store) and
 * whether it moved the same way as the simulated user's rating of held-out answers.
 */
export function liveEvaluationText(r: LearnResult): string {
  const e = evaluationOfRun(r.outputDir);
  const judged = e.versions.filter((v) => v.reward.mean !== null && v.judged_turns > 0);
  const lines = ["Judged turns per policy version (the users' own reactions during training; openclaw-rl report):", formatEvaluation(e)];
  const steps = Object.keys(r.ratings).map(Number);
  const first = judged[0];
  const last = judged.at(-1);
  const base = r.ratings[Math.min(...steps)];
  const updated = r.ratings[Math.max(...steps)];
  if (first === undefined || last === first) {
    lines.push(
      `live reward: ${first === undefined ? 'no version' : `only v${first.policy_version}`} answered judged turns yet; a longer run shows the direction`,
    );
  } else if (last !== undefined && base !== undefined && updated !== undefined) {
    const live = last.reward.mean! - first.reward.mean!;
    const rated = updated - base;
    const agree = Math.sign(live) === Math.sign(rated);
    lines.push(
      `live reward v${first.policy_version} → v${last.policy_version}: ${first.reward.mean!.toFixed(2)} → ${last.reward.mean!.toFixed(2)}; held-out rating ${base.toFixed(2)} → ${updated.toFixed(2)}: ${agree ? 'same direction' : 'different directions'}`,
    );
  }
  return lines.join('\n');
}

/** Runs the demo and prints as it goes; returns the result. */
export async function runDemo(opts: DemoOptions): Promise<LearnResult> {
  const out = opts.out ?? process.stdout;
  // A wrong persona name is refused before anything is printed or started.
  createPersona(opts.persona);
  const where = opts.engine === 'tinker' ? 'the embedded CPU model, sampled and trained through the Tinker API' : 'the embedded CPU model';
  out.write(
    `openclaw-rl demo: mode ${opts.mode}, persona ${opts.persona}, ${opts.steps} training step${opts.steps === 1 ? '' : 's'} on ${where}\n`,
  );
  const learnOpts: LearnOptions = {
    mode: opts.mode,
    persona: opts.persona,
    steps: opts.steps,
    evalAt: [Math.max(1, Math.floor(opts.steps / 2))],
    evalSamples: opts.evalSamples,
    seed: opts.seed,
    outputDir: opts.outputDir,
    keepServing: opts.keepServing,
    engine: opts.engine,
    overrides: opts.overrides,
    onProgress: progressPrinter(out, opts.steps),
  };
  const r = await learn(learnOpts);
  out.write(`\n${formatDemoTable(r, opts.steps)}\n\n`);
  out.write(`${liveEvaluationText(r)}\n\n`);
  out.write(
    `ran ${r.episodes} episodes${r.failedEpisodes > 0 ? ` (${r.failedEpisodes} failed and were skipped)` : ''} in ${r.wallSeconds.toFixed(0)} s\n`,
  );
  out.write(`logs:       ${join(r.outputDir, 'logs', 'train.log')} (and metrics.jsonl)\n`);
  out.write(`records:    ${join(r.outputDir, 'records')} (turns.jsonl, judge.jsonl)\n`);
  out.write(`samples:    ${join(r.outputDir, 'samples.sqlite')} (openclaw-rl export --output-dir ${r.outputDir})\n`);
  out.write(
    opts.engine === 'tinker'
      ? `weights:    ${join(r.outputDir, 'tinker-state')} (sampler and training weights saved by the Tinker server; ${join(r.outputDir, 'checkpoints', 'step-*', 'tinker.json')} names them)\n`
      : `checkpoint: ${join(r.outputDir, 'checkpoints')}\n`,
  );
  out.write(
    opts.keepServing
      ? `dashboard:  ${r.url}/dashboard (Ctrl-C to stop)\n`
      : `dashboard:  served at ${r.url}/dashboard while the demo ran (add --keep-serving to browse it afterwards)\n`,
  );
  return r;
}
