// `doctor` for a Tinker channel (rollout.provider or teacher.logprob_api tinker): the server is
// reachable (healthz), the key is accepted and the base model is supported
// (get_server_capabilities), rollout.tokenizer loads (Tinker policy), a 1-token sample with prompt
// log-probs works on the base model — from a chat rendered with that tokenizer, so a tokenizer of
// another model shows up as ids the server refuses — and, with `--train`, a training model can be
// created (create_model + get_info) and is unloaded again (its LoRA slot freed). The server's
// profile (tinker.server, or detected) gets a row, and so does every configured setting that
// profile cannot honour. One row per check.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rolloutFacts, type Config } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import { TinkerClient, tinkerEndpoint, unhonouredSettings, type TinkerProfile } from '../engines/tinker/index.ts';
import { loadChatTokenizer } from '../chat/index.ts';
import type { DoctorRow } from './row.ts';

/** Whether the config uses the Tinker API at all. */
export function usesTinker(config: Config): boolean {
  return rolloutFacts(config).reach === 'tinker' || config.teacher.logprob_api === 'tinker';
}

/** Runs the Tinker checks in order; a failed step stops the ones that depend on it. */
export async function checkTinker(config: Config, opts: { train: boolean; timeoutMs: number }): Promise<DoctorRow[]> {
  const { baseUrl, apiKey } = tinkerEndpoint(config);
  const model = config.tinker.base_model ?? '-';
  const rows: DoctorRow[] = [];
  const row = (what: string, ok: boolean, result: string, fix = '') =>
    rows.push({ channel: 'tinker', baseUrl, model, ok, result: `${what}: ${result}`, fix });
  // A scratch state dir: doctor must not advance a run's seq_ids.
  const scratch = mkdtempSync(join(tmpdir(), 'ocrl-doctor-'));
  const client = new TinkerClient({
    baseUrl,
    apiKey,
    stateDir: scratch,
    timeoutMs: opts.timeoutMs,
    pollIntervalMs: 200,
    server: config.tinker.server,
    baseModel: config.tinker.base_model,
  });
  const step = async (what: string, fn: () => Promise<string>): Promise<boolean> => {
    try {
      row(what, true, await fn());
      return true;
    } catch (err) {
      const e = err instanceof OpenClawError ? err : new OpenClawError('internal', String(err));
      row(what, false, `${e.status} ${e.code ?? e.kind}`, e.message);
      return false;
    }
  };
  try {
    const reachable = step('reachable', async () => {
      try {
        await client.healthz();
        return 'healthz ok';
      } catch (err) {
        // An answer, even a refusal, means the server is there; the key check comes next.
        if (err instanceof OpenClawError && err.kind === 'authentication') return 'answers (healthz asks for the key)';
        throw err;
      }
    });
    if (!(await reachable)) return rows;
    let supported: string[] = [];
    if (
      !(await step(
        'key accepted',
        async () => (
          (supported = await client.capabilities()),
          `${supported.length} base models offered${apiKey ? '' : ' (no key sent: fine for SkyRL, hosted Tinker needs TINKER_API_KEY)'}`
        ),
      ))
    )
      return rows;
    const known = supported.includes(model);
    row(
      'base model',
      known,
      known ? `${model} is supported` : `${model} is not in get_server_capabilities`,
      known
        ? ''
        : `set tinker.base_model to one of: ${supported.slice(0, 12).join(', ')}${supported.length > 12 ? ', …' : ''} (SkyRL serves the --base-model it was started with)`,
    );
    if (!known) return rows;
    let profile: TinkerProfile | undefined;
    if (
      !(await step('server profile', async () => {
        const d = await client.server();
        profile = d.profile;
        return `${d.profile.name} (${d.reason})`;
      }))
    )
      return rows;
    // Settings this server ignores: a row each, naming the key. A warning, not a failure:
    // training runs, without them (the train log says so too).
    if (rolloutFacts(config).reach === 'tinker') {
      for (const u of unhonouredSettings(profile!, {
        maxGradNorm: config.training.max_grad_norm,
        weightDecay: config.training.weight_decay,
      })) {
        row(
          `WARNING cannot honour ${u.key}`,
          true,
          u.why,
          `training runs without it on ${profile!.name}; use a server that applies it if it matters`,
        );
      }
    }
    for (const note of profile!.serverSide) row('server-side setting', true, note);
    const topK = config.teacher.logprob_api === 'tinker' && config.scoring.distill_topk > 0 ? config.scoring.distill_topk : 0;
    // The policy's own prompt when it has a tokenizer; else any three ids.
    let promptIds = [1, 2, 3];
    if (rolloutFacts(config).reach === 'tinker') {
      await step('tokenizer', async () => {
        const dir = config.rollout.tokenizer;
        if (dir === undefined)
          throw new OpenClawError(
            'config',
            'rollout.tokenizer is not set: point it at a local Hugging Face folder of the base model (tokenizer.json, tokenizer_config.json) or, for the embedded Tinker server, at its checkpoint folder',
          );
        const loaded = await loadChatTokenizer(dir);
        promptIds = loaded.tokenizer.encodeChat([{ role: 'user', content: 'Hello!' }]);
        return `${dir} (${loaded.format === 'hf' ? 'Hugging Face folder' : 'embedded checkpoint'}): a 1-message chat is ${promptIds.length} tokens`;
      });
    }
    await step('1-token sample', async () => {
      const r = await client
        .sample({ promptIds, maxTokens: 1, temperature: 1, baseModel: model, promptLogprobs: true, topkPromptLogprobs: topK })
        .catch((err: unknown) => {
          if (err instanceof OpenClawError && /vocabulary/i.test(err.message)) {
            throw new OpenClawError('config', `${err.message}. rollout.tokenizer must be ${model}'s own tokenizer`, {
              param: 'rollout.tokenizer',
              cause: err,
            });
          }
          throw err;
        });
      const seq = r.sequences[0];
      if (seq === undefined || seq.tokens.length !== 1)
        throw new OpenClawError('upstream', `asample returned ${seq?.tokens.length ?? 0} tokens for max_tokens 1`);
      if (!seq.logprobs || seq.logprobs.length !== 1)
        throw new OpenClawError('upstream', 'asample returned no per-token log-probs; training needs them');
      if (!r.prompt_logprobs || r.prompt_logprobs.length !== promptIds.length)
        throw new OpenClawError('upstream', 'asample ignored prompt_logprobs; the teacher and scoring need them');
      if (topK > 0 && !profile!.topkPromptLogprobs)
        throw new OpenClawError(
          'config',
          `${profile!.name} does not answer topk_prompt_logprobs; set scoring.distill_topk: 0 with this server`,
        );
      if (topK > 0 && (!r.topk_prompt_logprobs || r.topk_prompt_logprobs.length !== promptIds.length))
        throw new OpenClawError('config', 'no top-K prompt log-probs; set scoring.distill_topk: 0 with this server');
      return `token ${seq.tokens[0]} (log-prob ${seq.logprobs[0].toFixed(3)}), prompt log-probs ok${topK > 0 ? ', top-K ok' : ''}`;
    });
    if (opts.train) {
      await step('create model', async () => {
        const id = await client.createModel(model, config.tinker.lora_rank);
        try {
          const info = await client.getInfo(id);
          // The embedded Tinker server trains every weight and says so (is_lora false).
          const kind = info.is_lora === false ? 'full fine-tuning (this server has no LoRA)' : `LoRA rank ${config.tinker.lora_rank}`;
          return `${kind}: model ${id} created (${JSON.stringify(info.model_data ?? {}).slice(0, 60)})`;
        } finally {
          // The probe model must not keep a LoRA slot (SkyRL: max_lora_adapters).
          await client.unloadModel(id);
        }
      });
    }
    return rows;
  } finally {
    await client.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
