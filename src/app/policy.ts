// The policy side of a run, from the config: the ChatChannel the gateway serves from, the
// token-level engine (when in-process), the tokenizer-backed helpers (re-tokenisation, context
// guard, prompt rendering for the teacher) and the teacher client. Loaded once, shared by all.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { providerRow, type Config } from '../config/index.ts';
import { OpenClawError } from '../errors/index.ts';
import type { ChatChannel, PolicyEngine } from '../engines/types.ts';
import { channelFromSettings } from '../engines/openai-compatible/index.ts';
import { EmbeddedChatTokenizer, HfChatTokenizer, TokenChatChannel, loadChatTokenizer, type ChatTokenizer } from '../chat/index.ts';
import type { Retokenizer } from '../gateway/index.ts';
import { createContextGuard, promptTokenCounter, type ContextGuard } from '../sessions/index.ts';
import { loadHfTokenizer, alignResponse, createAlignmentCounters, type AlignmentCounters } from '../tokenize/index.ts';
import { createTeacher, teacherProvider, type Teacher } from '../scoring/index.ts';
import type { PromptRenderer } from '../pipeline/index.ts';
import type { ResumePlan } from '../trainer/index.ts';

/** The checkpoint shipped with the package (`npm run pretrain` rebuilds it). */
export const BASE_CHECKPOINT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'checkpoints', 'base');

/** Everything policy-related a server needs. */
export interface Policy {
  channel: ChatChannel;
  /** The in-process engine (embedded rollout): trainable, scores for the teacher. */
  engine?: PolicyEngine;
  retokenizer?: Retokenizer;
  alignmentCounters?: AlignmentCounters;
  contextGuard?: ContextGuard;
  /** Renders (hinted) messages into prompt ids for the teacher. */
  renderPrompt?: PromptRenderer;
  /** The token-level policy's chat tokenizer (decode, stop tokens): the replay evaluation reads answers with it. */
  chatTokenizer?: ChatTokenizer;
  /** In-process teacher (teacher.provider: embedded) over the engine. */
  teacher?: Teacher;
  /** Counters of the policy's chat side for /metrics (answer parsing, prompt cache). */
  gauges?: () => Record<string, number>;
  close(): Promise<void>;
}

/** Remote policy: HTTP channel plus, with `rollout.tokenizer`, re-tokenisation and the context guard. */
async function remotePolicy(config: Config, channel: ChatChannel): Promise<Policy> {
  const policy: Policy = { channel, close: () => channel.close() };
  if (config.rollout.tokenizer === undefined) {
    if (config.rollout.context_length !== undefined) {
      throw new OpenClawError(
        'config',
        'rollout.context_length needs rollout.tokenizer (a local Hugging Face model folder) to count prompt tokens',
      );
    }
    return policy;
  }
  const tok = await loadHfTokenizer(config.rollout.tokenizer);
  const counters = createAlignmentCounters();
  policy.alignmentCounters = counters;
  policy.renderPrompt = (messages, tools) => tok.encode(tok.renderChat(messages, { tools, addGenerationPrompt: true }));
  if (config.rollout.context_length !== undefined)
    policy.contextGuard = createContextGuard(config.rollout.context_length, promptTokenCounter(tok));
  policy.retokenizer = ({ messages, tools, response, finishReason, upstreamLogprobs }) => {
    try {
      const a = alignResponse(
        tok,
        {
          messages,
          tools,
          responseText: typeof response.content === 'string' ? response.content : null,
          responseToolCalls: response.tool_calls,
          responseReasoning: typeof response.reasoning_content === 'string' ? response.reasoning_content : undefined,
          finishReason,
          upstreamLogprobs,
        },
        counters,
      );
      return {
        promptText: a.promptText,
        promptIds: a.promptIds,
        responseIds: a.responseIds,
        logprobs: a.logprobs,
        logprobMask: a.logprobMask.includes(0) ? a.logprobMask : undefined,
        warnings: a.warning ? [a.warning] : [],
      };
    } catch (err) {
      return { logprobs: upstreamLogprobs, warnings: [`re-tokenisation failed, turn cannot be trained: ${(err as Error).message}`] };
    }
  };
  return policy;
}

/** Embedded policy: the checkpoint in worker threads behind a TokenChatChannel. */
async function embeddedPolicy(config: Config, opts: { train: boolean; resume?: ResumePlan; trainingNice?: number }): Promise<Policy> {
  const dir = opts.resume?.from?.dir ?? config.rollout.checkpoint ?? BASE_CHECKPOINT;
  if (!existsSync(join(dir, 'config.json'))) {
    throw new OpenClawError(
      'config',
      `rollout.checkpoint: no checkpoint at ${dir} (expected config.json, model.safetensors, tokenizer.json). Run 'npm run pretrain' to build the base checkpoint.`,
    );
  }
  const { WorkerEngine } = await import('../engines/embedded/index.ts');
  const engine = await WorkerEngine.load(dir, { train: opts.train, version: opts.resume?.version, trainingNice: opts.trainingNice });
  if (engine.tokenizer === null) throw new OpenClawError('config', `rollout.checkpoint: ${dir} has no tokenizer.json`);
  const tok = new EmbeddedChatTokenizer(engine.tokenizer);
  const channel = new TokenChatChannel(engine, tok, {
    modelId: config.rollout.model_id,
    defaultTemperature: config.rollout.temperature,
    defaultMaxTokens: config.rollout.max_tokens,
    topP: config.rollout.top_p,
    contextLength: Math.min(engine.config.ctx, config.rollout.context_length ?? Infinity),
  });
  const policy: Policy = {
    channel,
    engine,
    renderPrompt: (messages, tools) => tok.encodeChat(messages, tools),
    chatTokenizer: tok,
    close: () => channel.close(),
  };
  // A teacher on the policy engine (teacher.provider embedded): the engine's own base model scores with the hint in view.
  if (teacherProvider(config).onPolicyEngine) policy.teacher = createTeacher(config, { engine }) ?? undefined;
  return policy;
}

/** Context of a token-level remote policy when `rollout.context_length` is not set (Qwen3's native window). */
export const DEFAULT_TOKEN_POLICY_CONTEXT = 32768;

/**
 * A token-level PolicyEngine that samples elsewhere (e.g. Tinker's sampler) served as OpenAI chat:
 * the model's own chat template and tokenizer from `rollout.tokenizer` (a Hugging Face folder, or
 * an embedded checkpoint for the embedded Tinker server), prompts encoded incrementally,
 * Qwen3/Hermes think blocks and tool calls parsed, and the engine's exact ids and log-probs passed
 * on for recording. The teacher renders hinted prompts with the same template.
 */
export async function tokenPolicy(
  config: Config,
  engine: PolicyEngine,
  opts: { onWarning?: (message: string) => void } = {},
): Promise<Policy> {
  const dir = config.rollout.tokenizer;
  if (dir === undefined) {
    throw new OpenClawError(
      'config',
      `rollout.tokenizer is required with rollout.provider ${config.rollout.provider}: the server renders the chat template and encodes prompts itself, so point it at a local Hugging Face folder of the policy's base model (tokenizer.json, tokenizer_config.json with its chat_template) or, for the embedded Tinker server, at its checkpoint folder`,
      { param: 'rollout.tokenizer' },
    );
  }
  const loaded = await loadChatTokenizer(dir);
  const tok = loaded.tokenizer;
  const channel = new TokenChatChannel(engine, tok, {
    modelId: config.rollout.model_id,
    defaultTemperature: config.rollout.temperature,
    defaultMaxTokens: config.rollout.max_tokens,
    topP: config.rollout.top_p,
    contextLength: Math.min(
      config.rollout.context_length ?? loaded.contextLength ?? DEFAULT_TOKEN_POLICY_CONTEXT,
      loaded.contextLength ?? Infinity,
    ),
    onWarning: opts.onWarning,
  });
  const prompts = tok instanceof HfChatTokenizer ? tok.prompts.stats : undefined;
  return {
    channel,
    engine,
    renderPrompt: (messages, tools) => tok.encodeChat(messages, tools),
    chatTokenizer: tok,
    gauges: () => ({
      ...channel.counters,
      ...(prompts !== undefined
        ? {
            prompt_cache_hits: prompts.hits,
            prompt_cache_misses: prompts.calls - prompts.hits,
            prompt_chars_reused: prompts.reusedChars,
            prompt_chars_encoded: prompts.encodedChars,
          }
        : {}),
    }),
    close: () => channel.close(),
  };
}

/** Warnings and progress notes of the policy side, before the server's log exists. */
function warnOnStderr(message: string): void {
  process.stderr.write(`openclaw-rl: ${message}\n`);
}

/** What `createPolicy` is given besides the config. */
export interface PolicyOptions {
  channel?: ChatChannel;
  train?: boolean;
  resume?: ResumePlan;
  trainingNice?: number;
}

/**
 * The rollout providers (`rollout.provider`), one row each: how the policy is built and whether it
 * trains in this process (its engine kind is what checkpoints record, so resume and `--fresh` read
 * it). Adding an engine is its own file, a row here and its name in the config schema.
 */
export interface RolloutProviderSpec {
  /** What it is, in the words of `train`'s refusal and the docs. */
  about: string;
  /** The engine kind that trains in this process, or undefined for a server that only serves (SGLang/vLLM). */
  trainingKind?: 'embedded' | 'tinker';
  create(config: Config, opts: PolicyOptions): Promise<Policy>;
}

export const ROLLOUT_PROVIDERS: Readonly<Record<Config['rollout']['provider'], RolloutProviderSpec>> = {
  openai_compatible: {
    about: 'SGLang, vLLM or any OpenAI-compatible server',
    create: async (config) => remotePolicy(config, channelFromSettings('rollout', config.rollout)),
  },
  tinker: {
    about: "hosted Tinker, SkyRL, or 'engine serve --tinker'",
    trainingKind: 'tinker',
    async create(config, opts) {
      const engine = await (await import('./tinker.ts')).startTinkerEngine(config, warnOnStderr, opts.resume);
      return tokenPolicy(config, engine, { onWarning: warnOnStderr });
    },
  },
  embedded: {
    about: 'the bundled CPU model',
    trainingKind: 'embedded',
    create: (config, opts) => embeddedPolicy(config, { train: opts.train ?? false, resume: opts.resume, trainingNice: opts.trainingNice }),
  },
};

/** The row of `rollout.provider`; an unknown one (a config built by hand) is a config error naming the key. */
export function rolloutProvider(config: Config): RolloutProviderSpec {
  return providerRow(ROLLOUT_PROVIDERS, config.rollout.provider, 'rollout.provider');
}

/** `train`'s check: the rollout provider trains in this process, or a config error naming those that do. */
export function assertTrainable(config: Config): void {
  const row = rolloutProvider(config);
  if (row.trainingKind !== undefined) return;
  const trainers = Object.entries(ROLLOUT_PROVIDERS).filter(([, r]) => r.trainingKind !== undefined);
  throw new OpenClawError(
    'config',
    `train: rollout.provider is ${config.rollout.provider} (${row.about}), which only serves; training needs rollout.provider ${trainers.map(([name, r]) => `${name} (${r.about})`).join(' or ')}. To learn from this server's traffic, run 'api-server' and train from the sample store ('openclaw-rl export').`,
    { param: 'rollout.provider' },
  );
}

/** Builds the policy side of the config (an explicit channel wins, for tests). */
export async function createPolicy(config: Config, opts: PolicyOptions = {}): Promise<Policy> {
  if (opts.channel)
    return remotePolicy({ ...config, rollout: { ...config.rollout, tokenizer: undefined, context_length: undefined } }, opts.channel);
  return rolloutProvider(config).create(config, opts);
}
