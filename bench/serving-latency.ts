// Serving latency while background work runs (bench:gate, bench:eval): chat requests against a
// running server while idle, then while `work` runs, round after round, in the same process; the
// report is the p50/p99 of both and their ratio (the targets are ratios to idle, measured here).

/** The p-th percentile of xs (nearest rank). */
export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** One short chat completion (a side turn, so nothing is judged or trained); its latency in ms. */
async function chatLatency(url: string, prompt: string, i: number): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-id': `bench-${i}`, 'x-turn-type': 'side' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: prompt }], max_tokens: 16 }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`chat answered ${res.status}`);
  return performance.now() - t0;
}

/** Prompts the latency chats and the benches' own samples use. */
export const PROMPTS = ['How do I water a cactus?', 'Explain recursion briefly.', 'Write a haiku about rain.', 'What is a hash map?'];

/** `rounds` × (chats/rounds idle chats, then chats for as long as one `work()` runs). */
export async function latencyDuring(
  url: string,
  opts: { rounds: number; chats: number },
  work: () => Promise<void>,
): Promise<{ idle: number[]; during: number[] }> {
  const idle: number[] = [];
  const during: number[] = [];
  for (let round = 0; round < opts.rounds; round++) {
    for (let i = 0; i < opts.chats / opts.rounds; i++) idle.push(await chatLatency(url, PROMPTS[i % PROMPTS.length], i));
    let working = true;
    const run = work().finally(() => {
      working = false;
    });
    for (let i = 0; working; i++) during.push(await chatLatency(url, PROMPTS[i % PROMPTS.length], i));
    await run;
  }
  return { idle, during };
}

/** The two latency lines and the p99 ratio, as printed. */
export function latencyReport(idle: number[], during: number[], duringLabel: string): string {
  const line = (name: string, xs: number[]) =>
    `${name.padEnd(24)} n=${String(xs.length).padStart(3)}  p50 ${pct(xs, 50).toFixed(1)} ms  p99 ${pct(xs, 99).toFixed(1)} ms`;
  return [
    line('chat while idle', idle),
    line(`chat during ${duringLabel}`, during),
    `p99 during / idle: ${(pct(during, 99) / pct(idle, 99)).toFixed(2)}× (target ≤ 2×)`,
  ].join('\n');
}
