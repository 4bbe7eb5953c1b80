// `openclaw-rl doctor`: checks each model channel the way the seed's section 4.1 does by hand —
// a minimal chat request, `choices[0].message.content`, `usage`, and (rollout) per-token
// log-probs — and explains failures with the same explanations the gateway uses.
// In: a Config. Out: one row per channel (channel, base URL, model, result, fix).
import type { Config } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import { channelFromSettings } from '../engines/openai-compatible/index.ts';
import { checkTinker, usesTinker } from './tinker.ts';

/** One line of the doctor's table. */
export interface DoctorRow {
  channel: 'rollout' | 'judge' | 'teacher' | 'tinker';
  baseUrl: string;
  model: string;
  ok: boolean;
  result: string;
  fix: string;
}

interface ChannelSpec {
  channel: DoctorRow['channel'];
  provider: string;
  base_url?: string;
  api_key?: string;
  model_id?: string;
  temperature: number;
}

/** Runs one minimal chat request on an OpenAI-compatible channel and judges the answer. */
export async function checkChannel(spec: ChannelSpec, opts: { wantLogprobs: boolean; timeoutMs: number }): Promise<DoctorRow> {
  const base = { channel: spec.channel, baseUrl: spec.base_url ?? '-', model: spec.model_id ?? '-' };
  if (spec.provider !== 'openai_compatible') {
    return { ...base, ok: true, result: `in-process (${spec.provider}): nothing to reach`, fix: '' };
  }
  const ch = channelFromSettings(
    spec.channel,
    { ...spec, timeout_s: opts.timeoutMs / 1000 },
    { timeoutMs: opts.timeoutMs, maxRetries: 0, connections: 1 },
  );
  base.baseUrl = ch.base.url;
  try {
    const body: Record<string, unknown> = {
      model: spec.model_id,
      messages: [{ role: 'user', content: 'In one sentence, what is on-policy distillation?' }],
      temperature: spec.temperature,
      max_tokens: 64,
    };
    if (opts.wantLogprobs) body.logprobs = true;
    const json = await ch.complete(body);
    const choice = (json.choices as Array<Record<string, any>>)[0];
    const content = choice?.message?.content;
    const problems: string[] = [];
    const fixes: string[] = [];
    if (typeof content !== 'string' || content === '') {
      problems.push('choices[0].message.content is empty');
      fixes.push('check that the model id is a chat model; raise max_tokens if it only produced reasoning');
    }
    if (json.usage === undefined || json.usage === null) {
      problems.push('no usage in the answer');
      fixes.push('token counts are missing: some proxies strip usage; prefer a direct engine endpoint');
    }
    if (opts.wantLogprobs) {
      const lp = choice?.logprobs?.content;
      if (!Array.isArray(lp) || lp.length === 0) {
        problems.push('no per-token log-probs (logprobs: true was ignored)');
        fixes.push('training needs log-probs: serve the policy with SGLang or vLLM (hosted APIs often drop them)');
      }
    }
    const tokens =
      json.usage && typeof json.usage === 'object' ? ` usage=${(json.usage as Record<string, unknown>).total_tokens ?? '?'} tokens` : '';
    return problems.length === 0
      ? {
          ...base,
          ok: true,
          result: `ok: "${String(content).slice(0, 40).replace(/\s+/g, ' ')}…"${tokens}${opts.wantLogprobs ? ', log-probs ok' : ''}`,
          fix: '',
        }
      : { ...base, ok: false, result: problems.join('; '), fix: fixes.join('; ') };
  } catch (err) {
    const e = err instanceof OpenClawError ? err : new OpenClawError('internal', String(err));
    return { ...base, ok: false, result: `${e.status} ${e.code ?? e.kind}`, fix: e.message };
  } finally {
    await ch.close();
  }
}

/**
 * Checks rollout, judge and teacher; the rollout channel must also return log-probs. A Tinker
 * rollout/teacher is checked by `checkTinker` instead (with `train`: a create-model round trip).
 */
export async function runDoctor(config: Config, timeoutMs = 30_000, opts: { train?: boolean } = {}): Promise<DoctorRow[]> {
  const specs: Array<[ChannelSpec, boolean]> = [
    [{ channel: 'rollout', ...config.rollout }, true],
    [{ channel: 'judge', ...config.judge }, false],
    [{ channel: 'teacher', ...config.teacher }, false],
  ];
  const onTinker = (s: ChannelSpec) =>
    (s.channel === 'rollout' && config.rollout.provider === 'tinker') ||
    (s.channel === 'teacher' && config.teacher.logprob_api === 'tinker');
  const rows = await Promise.all(specs.filter(([s]) => !onTinker(s)).map(([s, lp]) => checkChannel(s, { wantLogprobs: lp, timeoutMs })));
  return usesTinker(config) ? [...rows, ...(await checkTinker(config, { train: opts.train ?? false, timeoutMs }))] : rows;
}

/** Renders the rows as a fixed-width table. */
export function formatDoctorTable(rows: DoctorRow[]): string {
  const head = ['channel', 'base URL', 'model', 'result', 'fix'];
  const cells = rows.map((r) => [r.channel, r.baseUrl, r.model, `${r.ok ? 'PASS' : 'FAIL'} ${r.result}`, r.fix]);
  // Nothing is cut: a fix that is not shown in full cannot be followed.
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
