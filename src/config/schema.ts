// The one typed configuration object (docs/design.md §4). Every field has a doc line and a default;
// unknown keys are errors (strict objects) so a typo never silently falls back to a default.
import { z } from 'zod';
import { MODES } from './modes.ts';
import { DEFAULT_CLIP_RATIO, DEFAULT_CLIP_RATIO_HIGH } from '../rl/index.ts';
import { TinkerSchema, checkTinker } from './tinker.ts';
import {
  JUDGE_FACTS,
  LOGPROB_APIS,
  ROLLOUT_FACTS,
  TEACHER_FACTS,
  providerNames,
  rolloutFacts,
  judgeFacts,
  teacherFacts,
} from './providers.ts';

/** The side-call rules `server.side_calls` switches (their tests: gateway/side-calls.ts). */
export const SIDE_CALL_RULE_NAMES = [
  'one_token_probe',
  'claude_code_title',
  'claude_code_toolless',
  'conversation_summary',
  'codex_request_kind',
  'openclaw_heartbeat',
] as const;

/** The rollout model name used when `rollout.model_id` is not set (configWarnings says so). */
export const DEFAULT_MODEL_ID = 'openclaw-rl-policy';

const url = z.string().url();
const regex = z.string().refine((s) => {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}, 'not a valid regular expression');
const positiveInt = z.number().int().positive();

/** The policy being trained and served. */
export const RolloutSchema = z
  .object({
    /** `embedded`: the bundled CPU model; `openai_compatible`: SGLang / vLLM / any OpenAI server; `tinker`: the Tinker API (see `tinker:`). */
    provider: z.enum(providerNames(ROLLOUT_FACTS)).default('embedded'),
    /** Upstream base URL; `…/v1` and bare host styles are both accepted. */
    base_url: url.optional(),
    api_key: z.string().optional(),
    /** Model id sent upstream (and served at /v1/models unless server.served_model_name is set); unset: a warning and 'openclaw-rl-policy'. */
    model_id: z.string().min(1).default(DEFAULT_MODEL_ID),
    temperature: z.number().min(0).max(2).default(0.8),
    top_p: z.number().gt(0).max(1).optional(),
    /** Upper bound for a response; larger client `max_tokens` values are clamped to this. */
    max_tokens: positiveInt.default(2048),
    /** Local Hugging Face model folder (tokenizer.json + tokenizer_config.json) for re-tokenising and for the Tinker policy's chat template; an embedded checkpoint folder also works (embedded Tinker server). */
    tokenizer: z.string().optional(),
    /** Embedded engine: checkpoint folder (default: the one shipped with the package). */
    checkpoint: z.string().optional(),
    /** Prompt tokens the policy accepts; longer prompts get a 400 naming both lengths. */
    context_length: positiveInt.optional(),
    /** Total deadline for one upstream call, retries included. */
    timeout_s: z.number().positive().default(600),
    /** Deadline for the first streamed byte of the upstream answer. */
    first_token_timeout_s: z.number().positive().default(120),
    /** Retries on 429/5xx/connection errors before the first byte (never once streaming began). */
    max_retries: z.number().int().min(0).max(10).default(2),
    /** Ask the upstream for token ids (`return_token_ids`, vLLM); off for servers that reject unknown fields. */
    return_token_ids: z.boolean().default(true),
  })
  .strict();

/** The process reward model / hint judge. */
export const JudgeSchema = z
  .object({
    /** `rules`: deterministic offline judge; `openai_compatible`: a judge model over HTTP. */
    provider: z.enum(providerNames(JUDGE_FACTS)).default('rules'),
    base_url: url.optional(),
    api_key: z.string().optional(),
    model_id: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).default(0.0),
    max_tokens: positiveInt.default(512),
    timeout_s: z.number().positive().default(120),
    /**
     * A verdict less sure than this scores 0 (docs/judge.md): the rules judge's own confidence,
     * or a judge model's share of agreeing votes. Raising it trades coverage for fewer sign flips.
     */
    min_confidence: z.number().min(0).max(1).default(0.5),
  })
  .strict();

/** What leaves the machine (docs/privacy.md). */
export const PrivacySchema = z
  .object({
    /**
     * `redact`: a judge or teacher that is not on a local host reads the turn with secrets and
     * personal data replaced by typed placeholders; `strict`: that, and a turn whose prompt or
     * answer holds personal data is never a sample (`personal_in_sample`); `off`: remote channels
     * read the text as recorded.
     */
    mode: z.enum(['off', 'redact', 'strict']).default('redact'),
    /** Hosts that count as this machine: a judge whose base_url names another host is remote. */
    local_hosts: z.array(z.string().min(1)).default(['127.0.0.1', 'localhost', '::1']),
    /**
     * A hosted trainer (`rollout.provider: tinker` on a host not in local_hosts) gets token ids of
     * whole prompts: `drop` keeps samples whose prompt holds a secret from it (`secret_in_sample`);
     * `allow` sends them. Re-tokenising a redacted prompt would break the exact log-probs.
     */
    hosted_trainer: z.enum(['drop', 'allow']).default('drop'),
  })
  .strict();

/** The teacher that re-scores responses under the hinted prompt. */
export const TeacherSchema = z
  .object({
    provider: z.enum(providerNames(TEACHER_FACTS)).default('embedded'),
    base_url: url.optional(),
    api_key: z.string().optional(),
    model_id: z.string().min(1).optional(),
    temperature: z.number().min(0).max(2).default(0.7),
    /** How prompt log-probs are asked for: SGLang `/generate`, vLLM `/v1/completions`, in-process, or Tinker `asample` (model_id: base model or tinker:// path, default tinker.base_model). */
    logprob_api: z.enum(LOGPROB_APIS).default('embedded'),
    max_concurrency: positiveInt.default(4),
    timeout_s: z.number().positive().default(120),
  })
  .strict();

/** The HTTP server in front of the policy. */
export const ServerSchema = z
  .object({
    host: z.string().default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(30000),
    /** Bearer key clients must send; unset = no auth (also `--api-key`, OPENCLAW_RL_API_KEY). */
    api_key: z.string().optional(),
    /** Name at /v1/models; defaults to rollout.model_id. */
    served_model_name: z.string().optional(),
    /**
     * Other model names clients may send (each agent sends the name its user configured, e.g.
     * `claude-sonnet-4-5`); `*` matches anything (`claude-*`, or `*` for any name). Any other
     * name gets a 404 listing the accepted ones.
     */
    model_aliases: z.array(z.string().min(1)).default([]),
    body_limit_mb: z.number().positive().default(32),
    /** On SIGTERM/SIGINT: seconds answers in flight and judge calls get before they are cut (docs/reliability-http.md). */
    shutdown_grace_s: z.number().min(0).max(3600).default(10),
    /** Turn type for requests that say none: `main` trains, `side` does not. */
    default_turn_type: z.enum(['main', 'side']).default('main'),
    /** Without a session id: infer the session from the message history, or use one shared id. */
    session_fallback: z.enum(['infer', 'anonymous']).default('infer'),
    /** Sessions idle this long are closed (their pending turns finalised) to bound memory. */
    session_idle_timeout_s: z.number().positive().default(1800),
    /** Hard cap on live sessions; the least recently used is closed beyond it. */
    max_sessions: positiveInt.default(10000),
    /** Regexes (JS syntax) of client-internal context messages that are never a next state. */
    ignore_message_patterns: z.array(regex).default(['<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>']),
    /**
     * Regexes of client-inserted spans removed from a next state's text before the judge reads it
     * (Claude Code appends `<system-reminder>` blocks to user messages and tool results).
     */
    strip_from_next_state: z.array(regex).default(['<system-reminder>[\\s\\S]*?</system-reminder>']),
    /** Regexes matched against the system prompt: a match makes a header-less request a side turn. */
    side_turn_patterns: z.array(regex).default([]),
    /**
     * Agents' helper calls classified as side turns (never trained), by rule name
     * (gateway/side-calls.ts): one_token_probe, claude_code_title, claude_code_toolless,
     * conversation_summary, codex_request_kind, openclaw_heartbeat. All on; set one to false to
     * train on those calls.
     */
    side_calls: z.record(z.enum(SIDE_CALL_RULE_NAMES), z.boolean()).default({}),
  })
  .strict();

/** How judged turns are scored and turned into samples. */
export const ScoringSchema = z
  .object({
    /** Judge votes per turn (`--majority-vote`). */
    majority_vote: positiveInt.default(3),
    /** Valid votes needed to decide; fewer → score 0. 1 reproduces the reference. */
    quorum: positiveInt.default(1),
    hint_selection: z.enum(['longest', 'overlap']).default('longest'),
    min_hint_chars: z.number().int().min(0).default(10),
    /** Teacher top-K log-probs to keep per token (0 = none). */
    distill_topk: z.number().int().min(0).default(0),
    /** Concurrent judge calls across all turns. */
    judge_concurrency: positiveInt.default(8),
    /** Explicit feedback (`POST /v1/feedback`): replaces the judge's score, or joins its votes. */
    feedback: z.enum(['override', 'join']).default('override'),
    /**
     * Run the scoring stage (store writes, judges, resolution) in a worker thread, off the
     * gateway's event loop. Off by default: on 2 cores shared with the upstream it costs more CPU
     * than it takes off the event loop (bench:gateway measures both). Used when every part can be
     * built from the config there; a teacher inside the process keeps it on the main thread.
     */
    worker_thread: z.boolean().default(false),
  })
  .strict();

/** PPO training (docs/design.md §2). */
export const TrainingSchema = z
  .object({
    batch_size: positiveInt.default(16),
    lr: z.number().positive().default(1e-4),
    epochs: positiveInt.default(1),
    minibatches: positiveInt.default(1),
    clip_ratio: z.number().positive().default(DEFAULT_CLIP_RATIO),
    clip_ratio_high: z.number().positive().default(DEFAULT_CLIP_RATIO_HIGH),
    kl_coef: z.number().min(0).default(0),
    entropy_coef: z.number().min(0).default(0),
    w_rl: z.number().default(1.0),
    w_opd: z.number().default(1.0),
    /** Per-token clip of (teacher − old) in OPD advantages; unset = no clip. */
    opd_adv_clip: z.number().positive().optional(),
    normalize_rewards: z.boolean().default(false),
    max_grad_norm: z.number().positive().default(1.0),
    weight_decay: z.number().min(0).default(0.0),
    /** Samples more than this many policy versions old are dropped, not trained. */
    max_staleness: z.number().int().min(0).default(4),
    /** Stop training after this many steps (0 = no limit); serving goes on. */
    max_steps: z.number().int().min(0).default(0),
    /**
     * Checkpoint every N steps (0 = only at exit). A crash loses at most the steps since the last
     * checkpoint (their samples return to ready on resume), so the default saves every step.
     */
    save_interval: z.number().int().min(0).default(1),
    /** Complete checkpoints kept under <output_dir>/checkpoints (oldest removed first; 0 = keep all). */
    keep_checkpoints: z.number().int().min(0).default(5),
    /** openclaw-rl: a session with no trainable turn trains its first judged turn. */
    at_least_one: z.boolean().default(true),
    /** openclaw-opd: turns without an accepted hint are dropped. */
    hint_reject: z.boolean().default(true),
    /** openclaw-opd: turns that never got a next state are dropped at session end. */
    force_drop: z.boolean().default(true),
    /** openclaw-combine: dispatch each turn to opd+rl / opd / rl / nothing. */
    three_way_dispatch: z.boolean().default(true),
  })
  .strict();

/** The sample store (`<output_dir>/samples.sqlite`). */
export const StorageSchema = z
  .object({
    /**
     * SQLite `synchronous` in WAL mode. `normal`: every acknowledged turn survives a crash or kill
     * of the process (the kernel holds the WAL) with no fsync on the request path; `full`: also
     * survives power loss / OS crashes, at one fsync per stored turn.
     */
    synchronous: z.enum(['normal', 'full']).default('normal'),
    /**
     * Size of one turn-journal segment (records/turns*.jsonl) in MB; the journal rotates to a new
     * segment beyond it. Start-up reads from the segment of the store's checkpoint on, so this
     * bounds what a restart reads before that point (64 MB: well under a second to parse here).
     */
    records_segment_mb: z.number().positive().max(4096).default(64),
    /**
     * Keep a session's records this many days after its newest turn, then forget it everywhere
     * (journal, judge logs, sample store: the path of `openclaw-rl forget`), checked hourly.
     * Unset: kept until forgotten by hand.
     */
    retention_days: z.number().positive().max(36500).optional(),
  })
  .strict();

/** The regression gate's settings (evaluation.gate). */
const GateSchema = z
  .object({
    /**
     * `holdout_reward_logprob` (higher is better): Σ reward · mean log-prob the new weights give
     * the held-out answers, per sample. `holdout_teacher_gap` (lower is better): mean
     * |teacher − student| log-prob over held-out answer tokens (samples with teacher scores).
     * `auto`: the teacher gap in openclaw-opd, the reward log-prob otherwise.
     */
    metric: z.enum(['auto', 'holdout_reward_logprob', 'holdout_teacher_gap']).default('auto'),
    /**
     * How much worse than the serving version still serves, in nats per token, judged by a
     * one-sided 97.5% bound over the held-out samples (rl/paired.ts): liked answers' mean
     * log-prob may fall by this much (reward metric), the teacher gap widen by this much.
     */
    max_drop: z.number().min(0).default(0.5),
    /**
     * The largest mean log-prob fall per token of all held-out answers, liked or not (and of
     * the batch just trained), that is still learning and not a collapse (same bound).
     */
    max_shift: z.number().positive().default(2),
    /**
     * How far liked held-out answers may fall against disliked ones, since each was first
     * scored, before training counts as moving backwards (nats per token, same bound, Welch).
     */
    max_reverse: z.number().min(0).default(0.05),
    /**
     * How much a step must raise the objective it trained on, measured on its own batch: the mean
     * over answers of advantage × log-prob change per token (rl/paired.ts surrogateGain). A step
     * that follows its gradient raises it; one applied the wrong way (inverted advantages) lowers it.
     */
    min_batch_gain: z.number().default(0),
    /** Fewer held-out samples than this: the gate passes the version and says why. */
    min_samples: positiveInt.default(8),
    /** `hold`: keep training from the refused weights; `rollback`: from the serving version's checkpoint. */
    on_fail: z.enum(['hold', 'rollback']).default('rollback'),
    /**
     * The probe collapse check (rl/collapse.ts): the candidate and the serving version answer
     * the default probes (evaluation/default-probes.ts) and those of `probe_file`, with the same
     * seeds; past any of these limits the candidate is refused, whatever the held-out numbers say.
     * Runs where the engine can sample unpublished weights (embedded, Tinker).
     */
    probes: z
      .object({
        enabled: z.boolean().default(true),
        /** KL(candidate ‖ serving) per token on the candidate's own probe answers, nats. */
        max_kl: z.number().positive().default(3),
        /** Rise in the share of probe answers that are garbled or empty. */
        max_not_answer_rise: z.number().min(0).max(1).default(0.25),
        /** Ratio of the two versions' per-token entropies on the probes, either way. */
        max_entropy_ratio: z.number().gt(1).default(4),
        /** Ratio of the two versions' mean probe answer lengths, either way. */
        max_length_ratio: z.number().gt(1).default(4),
        /** Rise in the share of answers to probes with tools whose tool calls are broken (not JSON, an unknown tool, a required argument missing). */
        max_tool_error_rise: z.number().min(0).max(1).default(0.25),
        /** Longest probe answer the check samples, in tokens. */
        max_tokens: positiveInt.default(48),
      })
      .strict()
      .default({}),
  })
  .strict();

/** Judge-free evaluation of new versions on held-out turns, and the regression gate (docs/evaluation.md). */
export const EvaluationSchema = z
  .object({
    /**
     * Share of trainable samples reserved as a held-out set (never trained; kept as dropped with
     * reason 'holdout'), chosen by a hash of session and turn so the choice is reproducible.
     */
    holdout_fraction: z.number().min(0).max(0.9).default(0),
    /** Held-out samples scored per evaluation (the newest). */
    holdout_max: positiveInt.default(64),
    /**
     * Held-out samples with a hint the replay evaluation re-answers with each new version (the
     * newest; 0 = off): `replay_opd_advantage`, and `replay_hint_satisfied` with a model judge.
     */
    replay_max: z.number().int().min(0).default(16),
    /** Longest re-answer of a held-out prompt (default: rollout.max_tokens). */
    replay_max_tokens: positiveInt.optional(),
    /**
     * JSONL of drift probes, one `{"messages": [...]}` or `{"prompt": "..."}` per line, answered
     * by each new version: `probe_kl`, `probe_length_mean`, `probe_empty_rate`, `probe_garbled_rate`.
     */
    probe_file: z.string().min(1).optional(),
    /** Longest answer to a probe. */
    probe_max_tokens: positiveInt.default(128),
    /**
     * Gate a trained version before it serves (docs/evaluation.md "The regression gate"): `true`
     * or a mapping of settings turns it on. `false` or absent: every step serves — except under `openclaw-rl train`, where absent means on
     * (TRAIN_DEFAULTS).
     */
    gate: z
      .union([z.literal(false).transform(() => undefined), z.literal(true).transform(() => GateSchema.parse({})), GateSchema], {
        errorMap: (issue, ctx) => ({
          message:
            issue.code === 'invalid_union'
              ? 'expected false (off), true (on with the defaults) or a mapping of gate settings'
              : ctx.defaultError,
        }),
      })
      .optional(),
  })
  .strict();

/** What `openclaw-rl train` sets where the config leaves a key out: the gate on, with the held-out share it needs. */
export const TRAIN_DEFAULTS = {
  'evaluation.gate': {},
  'evaluation.holdout_fraction': 0.1,
} as const;

export const ConfigSchema = z
  .object({
    /** Training signal: binary RL, on-policy distillation, or both (the rows of methods/modes.ts). */
    mode: z.enum(MODES).default('openclaw-combine'),
    /** Run folder: logs/, records, the sample store and checkpoints go under it. */
    output_dir: z.string().default('.'),
    server: ServerSchema.default({}),
    rollout: RolloutSchema.default({}),
    judge: JudgeSchema.default({}),
    privacy: PrivacySchema.default({}),
    teacher: TeacherSchema.default({}),
    scoring: ScoringSchema.default({}),
    training: TrainingSchema.default({}),
    storage: StorageSchema.default({}),
    tinker: TinkerSchema.default({}),
    evaluation: EvaluationSchema.default({}),
  })
  .strict()
  .superRefine((c, ctx) => {
    checkTinker(c, ctx);
    if (c.evaluation.gate !== undefined && c.evaluation.holdout_fraction === 0) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['evaluation', 'holdout_fraction'],
        message:
          "must be > 0 when evaluation.gate is on (and 'openclaw-rl train' turns it on unless evaluation.gate is false): the gate evaluates new versions on held-out turns",
      });
    }
    checkProviderKeys(c, ctx);
    if (c.training.clip_ratio_high < c.training.clip_ratio) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['training', 'clip_ratio_high'],
        message: `must be ≥ training.clip_ratio (${c.training.clip_ratio}), got ${c.training.clip_ratio_high}: the upper clip 1 + ε_high is never tighter than 1 + ε (the default is ${DEFAULT_CLIP_RATIO_HIGH}; raise it with clip_ratio)`,
      });
    }
  });

/** The validated configuration every component receives. */
export type Config = z.infer<typeof ConfigSchema>;

/** The keys each role's provider requires (providers.ts), and a teacher's log-prob API it can speak. */
function checkProviderKeys(c: Pick<Config, 'rollout' | 'judge' | 'teacher'>, ctx: z.RefinementCtx): void {
  const teacher = teacherFacts(c);
  const sections = [
    ['rollout', c.rollout, rolloutFacts(c)],
    ['judge', c.judge, judgeFacts(c)],
    ['teacher', c.teacher, teacher],
  ] as const;
  for (const [name, section, facts] of sections) {
    for (const key of facts.requires) {
      if ((section as Record<string, unknown>)[key] === undefined)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [name, key],
          message: `required when ${name}.provider is ${section.provider}`,
        });
    }
  }
  if (!teacher.logprobApis.includes(c.teacher.logprob_api)) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['teacher', 'logprob_api'],
      message: `must be ${teacher.logprobApis.join(' or ')} when teacher.provider is ${c.teacher.provider}${teacher.otherApi ? `: ${teacher.otherApi}` : ''}`,
    });
  }
}
