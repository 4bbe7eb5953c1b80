// `npm run bench:learning`: every mode × persona × seed as a real learning run on the embedded
// CPU model (src/demo/learn.ts); prints base rating, rating after 4 and 8 steps and steps to reach
// 0.7 (mean ± sd over seeds), the hint accept rate (how many next states became hints) and each
// persona's base rating pooled over all its runs, and writes
// bench-results/learning.json, learning.md and learning.svg.
// Knobs: BENCH_MODES, BENCH_PERSONAS, BENCH_SEEDS (comma lists), BENCH_STEPS (8), BENCH_EVAL (30),
// BENCH_MAX_EPISODES (400), BENCH_DETERMINISTIC (default 1: lockstep runs, whose ratings repeat
// exactly for the same tree and seeds; 0: the server's own schedule, training while episodes go on;
// docs/benchmarks.md "Reproducible runs").
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODES, type Mode } from '../src/methods/index.ts';
import { learn, type LearnResult } from '../src/demo/index.ts';
import { PERSONA_NAMES } from '../src/sim/index.ts';

const list = (v: string | undefined, all: readonly string[]) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [...all];
const modes = list(process.env.BENCH_MODES, MODES) as Mode[];
const personas = list(process.env.BENCH_PERSONAS, PERSONA_NAMES);
const seeds = list(process.env.BENCH_SEEDS, ['1', '2', '3']).map(Number);
const steps = Number(process.env.BENCH_STEPS ?? 8);
const evalSamples = Number(process.env.BENCH_EVAL ?? 30);
// A mode that gets little signal (OPD needs hint-bearing feedback) may need many episodes per
// step; the budget keeps the benchmark bounded and the table shows how far it got.
const maxEpisodes = Number(process.env.BENCH_MAX_EPISODES ?? 400);
const mid = Math.max(1, Math.floor(steps / 2));
const lockstep = process.env.BENCH_DETERMINISTIC !== '0';
const outDir = process.env.BENCH_OUT ?? 'bench-results';

function stats(xs: number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length - 1));
  return { mean, sd };
}
const fmt = (xs: number[]) => {
  const s = stats(xs);
  return `${s.mean.toFixed(2)} ± ${s.sd.toFixed(2)}`;
};

interface Row {
  mode: Mode;
  persona: string;
  runs: LearnResult[];
}

/** Rating after `step` steps; runs that stopped earlier (episode budget) count with their last rating, and the cell says so. */
export function cell(runs: Pick<LearnResult, 'ratings' | 'stepsDone'>[], step: number, budget = maxEpisodes): string {
  const at = runs.map((x) => x.ratings[step] ?? x.ratings[Math.min(step, x.stepsDone)]);
  const short = runs.filter((x) => x.stepsDone < step);
  return short.length === 0
    ? fmt(at)
    : `${fmt(at)} (${short.length} of ${runs.length} runs stopped at step ${short.map((x) => x.stepsDone).join(', ')}: ${budget}-episode budget)`;
}

function chart(rows: Row[]): string {
  // One small panel per persona: mean rating at 0 / mid / final steps, one line per mode.
  const W = 260,
    H = 180,
    pad = 30,
    // One colour per mode in table order (openclaw-rl red, openclaw-opd blue, openclaw-combine green).
    palette = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'],
    colorOf = (m: Mode) => palette[MODES.indexOf(m) % palette.length];
  const panels = personas.map((p, i) => {
    const x0 = (i % 3) * (W + 20),
      y0 = Math.floor(i / 3) * (H + 40);
    const lines = rows
      .filter((r) => r.persona === p)
      .map((r) => {
        const pts = [0, mid, steps].map((s) => {
          const ys = r.runs.map((x) => x.ratings[s]).filter((v) => v !== undefined);
          const y = ys.length ? stats(ys).mean : 0;
          return `${x0 + pad + (s / steps) * (W - 2 * pad)},${y0 + H - pad - y * (H - 2 * pad)}`;
        });
        return `<polyline fill="none" stroke="${colorOf(r.mode)}" stroke-width="2" points="${pts.join(' ')}"/>`;
      });
    return (
      `<g><rect x="${x0}" y="${y0}" width="${W}" height="${H}" fill="#fff" stroke="#ccc"/><text x="${x0 + 8}" y="${y0 + 16}" font-size="12">${p}</text>` +
      `<line x1="${x0 + pad}" y1="${y0 + H - pad - 0.7 * (H - 2 * pad)}" x2="${x0 + W - pad}" y2="${y0 + H - pad - 0.7 * (H - 2 * pad)}" stroke="#999" stroke-dasharray="3"/>` +
      `<text x="${x0 + pad}" y="${y0 + H - 8}" font-size="10">step 0 … ${steps}; dashed: rating 0.7</text>${lines.join('')}</g>`
    );
  });
  const legend = modes
    .map(
      (m, i) =>
        `<text x="${10 + i * 150}" y="${Math.ceil(personas.length / 3) * (H + 40) + 10}" font-size="12" fill="${colorOf(m)}">${m}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${3 * (W + 20)}" height="${Math.ceil(personas.length / 3) * (H + 40) + 20}" font-family="sans-serif">${panels.join('')}${legend}</svg>\n`;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const t0 = performance.now();
  for (const persona of personas) {
    for (const mode of modes) {
      const row: Row = { mode, persona, runs: [] };
      rows.push(row);
      for (const seed of seeds) {
        const r = await learn({ mode, persona, steps, evalAt: [mid], evalSamples, seed, maxEpisodes, lockstep });
        row.runs.push(r);
        process.stderr.write(
          `${mode} ${persona} seed ${seed}: ${JSON.stringify(r.ratings)} (${r.wallSeconds.toFixed(0)} s, ${r.episodes} episodes, hint accept rate ${r.hintAcceptRate.toFixed(2)})\n`,
        );
        // Partial results survive an interrupted run.
        mkdirSync(outDir, { recursive: true });
        writeFileSync(
          join(outDir, 'learning.partial.json'),
          JSON.stringify(rows.map((x) => ({ mode: x.mode, persona: x.persona, ratings: x.runs.map((y) => y.ratings) }))),
        );
      }
    }
  }
  const header = `| persona | method | base | after ${mid} steps | after ${steps} steps | steps to 0.7 | hint accept rate |`;
  const lines = [header, '|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const reached = r.runs.map((x) => x.stepsTo07).filter((v): v is number => v !== null);
    const to07 =
      reached.length === r.runs.length
        ? fmt(reached)
        : `${reached.length}/${r.runs.length} runs${reached.length ? ` (${fmt(reached)})` : ''}`;
    lines.push(
      `| ${r.persona} | ${r.mode} | ${fmt(r.runs.map((x) => x.ratings[0]))} | ${cell(r.runs, mid)} | ${cell(r.runs, steps)} | ${to07} | ${fmt(r.runs.map((x) => x.hintAcceptRate))} |`,
    );
  }
  // Every run of a persona starts from the same base checkpoint, so its base rating is best
  // estimated from all of them together (modes × seeds × held-out answers).
  lines.push('', '| persona | base, all runs pooled | answers rated |', '|---|---|---|');
  for (const persona of personas) {
    const bases = rows.filter((r) => r.persona === persona).flatMap((r) => r.runs.map((x) => x.ratings[0]));
    lines.push(`| ${persona} | ${stats(bases).mean.toFixed(2)} | ${bases.length * evalSamples} |`);
  }
  const table = lines.join('\n');
  process.stdout.write(
    `learning benchmark (${lockstep ? 'lockstep: repeats exactly' : "the server's own schedule: BENCH_DETERMINISTIC=0"}): ${seeds.length} seeds, ${evalSamples} held-out answers per rating, ${steps} steps (${((performance.now() - t0) / 60000).toFixed(1)} min)\n${table}\n`,
  );
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    join(outDir, 'learning.json'),
    JSON.stringify(
      {
        steps,
        evalSamples,
        seeds,
        lockstep,
        rows: rows.map((r) => ({ mode: r.mode, persona: r.persona, runs: r.runs.map(({ server: _s, ...x }) => x) })),
      },
      null,
      2,
    ),
  );
  writeFileSync(join(outDir, 'learning.svg'), chart(rows));
  writeFileSync(join(outDir, 'learning.md'), `${table}\n`);
  process.stdout.write(`wrote ${join(outDir, 'learning.json')}, learning.svg, learning.md\n`);
}

await main();
