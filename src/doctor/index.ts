// `openclaw-rl doctor`: checks each model channel by hand the way a user would — rollout and
// judge: a minimal chat request, `choices[0].message.content`, `usage`, and (rollout) per-token
// log-probs; an HTTP teacher: one real scoring request in its `logprob_api` dialect (SGLang
// `/generate` with input log-probs, vLLM `/v1/completions` with prompt_logprobs), the only
// request the pipeline ever sends it — and explains failures with the gateway's explanations.
// In: a Config. Out: one row per channel (channel, base URL, model, result, fix), then the
// privacy rows: which channel reads conversations unredacted (privacy.ts).
import { judgeFacts, rolloutFacts, teacherFacts, type Config, type Reach } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import { channelFromSettings } from '../engines/openai-compatible/index.ts';
import { normalizeBaseUrl } from '../http/index.ts';
import { createHttpTeacher, HTTP_DIALECTS } from '../scoring/index.ts';
import { checkTinker, usesTinker } from './tinker.ts';
import type { DoctorRow } from './row.ts';
import { privacyRows } from './privacy.ts';

export type { DoctorRow } from './row.ts';

interface ChannelSpec {
  channel: DoctorRow['channel'];
  provider: string;
  /** Where the provider runs (config/providers.ts): only an HTTP one has anything to reach here. */
  reach: Reach;
  base_url?: string;
  api_key?: string;
  model_id?: string;
  temperature: number;
}

/** Runs one minimal chat request on an OpenAI-compatible channel and judges the answer. */
export async function checkChannel(spec: ChannelSpec, opts: { wantLogprobs: boolean; timeoutMs: number }): Promise<DoctorRow> {
  const base = { channel: spec.channel, baseUrl: spec.base_url ?? '-', model: spec.model_id ?? '-' };
  if (spec.reach !== 'http') {
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

// Any ids work: every model's vocabulary has them, and the check is that the server scores
// exactly the response tokens it was sent (one finite log-prob each), not what they mean.
const PROBE_PROMPT = [1, 2, 3];
const PROBE_RESPONSE = [4, 5];

type TeacherSettings = Config['teacher'];

/**
 * Sends the teacher one scoring request in its dialect and checks the answer the way scoring does
 * (one log-prob per response token, aligned with what was sent): a server that lacks the endpoint
 * (404), refuses the key, or ignores the log-prob fields fails here rather than at the first turn.
 */
export async function checkTeacherScoring(teacher: TeacherSettings, opts: { temperature: number; timeoutMs: number }): Promise<DoctorRow> {
  const base = { channel: 'teacher' as const, baseUrl: teacher.base_url ?? '-', model: teacher.model_id ?? '-' };
  if (teacherFacts({ teacher }).reach !== 'http' || (teacher.logprob_api !== 'sglang' && teacher.logprob_api !== 'vllm')) {
    return { ...base, ok: true, result: `in-process (${teacher.provider}): nothing to reach`, fix: '' };
  }
  const dialect = HTTP_DIALECTS[teacher.logprob_api];
  let where: string = dialect.name;
  try {
    const url = normalizeBaseUrl(teacher.base_url!, 'teacher.base_url');
    where = `${url.origin}${dialect.path(url.root)}`;
    const client = createHttpTeacher({
      baseUrl: teacher.base_url!,
      apiKey: teacher.api_key,
      model: teacher.model_id,
      dialect: dialect.name,
      temperature: opts.temperature,
      maxConcurrency: 1,
      timeoutMs: opts.timeoutMs,
      // One request, as the header says: a doctor row reports the first answer, not a retried one.
      maxRetries: 0,
    });
    try {
      const score = await client.score(PROBE_PROMPT, PROBE_RESPONSE);
      return {
        ...base,
        ok: true,
        result: `ok: ${where} (${dialect.name}) scored ${score.logprobs.length} response tokens (log-probs ${score.logprobs.map((v) => v.toFixed(2)).join(', ')})`,
        fix: '',
      };
    } finally {
      await client.close();
    }
  } catch (err) {
    const e = err instanceof OpenClawError ? err : new OpenClawError('internal', String(err));
    return { ...base, ok: false, result: `${e.status} ${e.code ?? e.kind}: scoring request to ${where} failed`, fix: e.message };
  }
}

/**
 * Checks rollout, judge and teacher; the rollout channel must also return log-probs, an HTTP
 * teacher must score tokens in its dialect. A Tinker
 * rollout/teacher is checked by `checkTinker` instead (with `train`: a create-model round trip).
 */
export async function runDoctor(config: Config, timeoutMs = 30_000, opts: { train?: boolean } = {}): Promise<DoctorRow[]> {
  const specs: Array<[ChannelSpec, boolean]> = [
    [{ channel: 'rollout', ...config.rollout, reach: rolloutFacts(config).reach }, true],
    [{ channel: 'judge', ...config.judge, reach: judgeFacts(config).reach }, false],
  ];
  // A Tinker rollout is checked with the Tinker rows below.
  const checks = specs.filter(([s]) => s.reach !== 'tinker').map(([s, lp]) => checkChannel(s, { wantLogprobs: lp, timeoutMs }));
  // A Tinker teacher is checked with the Tinker rows (its 1-token sample asks for prompt log-probs).
  if (config.teacher.logprob_api !== 'tinker')
    checks.push(checkTeacherScoring(config.teacher, { temperature: config.rollout.temperature, timeoutMs }));
  const rows = await Promise.all(checks);
  const tinker = usesTinker(config) ? await checkTinker(config, { train: opts.train ?? false, timeoutMs }) : [];
  return [...rows, ...tinker, ...privacyRows(config)];
}

/** Renders the rows as a fixed-width table. */
export function formatDoctorTable(rows: DoctorRow[]): string {
  const head = ['channel', 'base URL', 'model', 'result', 'fix'];
  const cells = rows.map((r) => [r.channel, r.baseUrl, r.model, `${r.info ? 'INFO' : r.ok ? 'PASS' : 'FAIL'} ${r.result}`, r.fix]);
  // Nothing is cut: a fix that is not shown in full cannot be followed.
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
