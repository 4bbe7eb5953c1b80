// What every layer may know of a provider without building it, one row per provider of each role
// (rollout, judge, teacher): where it runs, which keys of its section it needs, and how its
// log-probs are scaled. The config schema takes its provider names from these rows and checks the
// keys; doctor, privacy and the scoring stage ask a row (`reach`), never a name. How each provider
// is built is the role's own table above this layer (app/policy.ts ROLLOUT_PROVIDERS,
// scoring/judge/providers.ts JUDGE_PROVIDERS, scoring/teacher/providers.ts TEACHER_PROVIDERS),
// keyed by these names, so a row missing there is a type error.
import { providerRow } from './provider-row.ts';

/** Where a provider runs: an OpenAI-compatible server over HTTP, the Tinker API, or this process. */
export type Reach = 'http' | 'tinker' | 'in_process';

export interface ProviderFacts {
  reach: Reach;
  /** Keys of its config section it cannot do without: the schema refuses a config that leaves one out. */
  requires: readonly ('base_url' | 'model_id')[];
}

export interface RolloutFacts extends ProviderFacts {
  /** The temperature its engine's log-probs come at: the sampling temperature (embedded) or T = 1. */
  logprobsAt: 'sampling_temperature' | 'one';
}

export const LOGPROB_APIS = ['sglang', 'vllm', 'embedded', 'tinker'] as const;
export type LogprobApi = (typeof LOGPROB_APIS)[number];

export interface TeacherFacts extends ProviderFacts {
  /** The `teacher.logprob_api` values it speaks, and (when it does not speak them all) why another one cannot work with it. */
  logprobApis: readonly LogprobApi[];
  otherApi?: string;
}

export const ROLLOUT_FACTS = {
  openai_compatible: { reach: 'http', requires: ['base_url'], logprobsAt: 'one' },
  embedded: { reach: 'in_process', requires: [], logprobsAt: 'sampling_temperature' },
  tinker: { reach: 'tinker', requires: [], logprobsAt: 'one' },
} as const satisfies Record<string, RolloutFacts>;

export const JUDGE_FACTS = {
  openai_compatible: { reach: 'http', requires: ['base_url', 'model_id'] },
  rules: { reach: 'in_process', requires: [] },
} as const satisfies Record<string, ProviderFacts>;

export const TEACHER_FACTS = {
  openai_compatible: {
    reach: 'http',
    requires: ['base_url'],
    logprobApis: ['sglang', 'vllm'],
    otherApi:
      'an HTTP teacher is asked at teacher.base_url in the SGLang or vLLM dialect; a Tinker teacher (logprob_api tinker, reached at tinker.base_url) is teacher.provider embedded',
  },
  embedded: {
    reach: 'in_process',
    requires: [],
    logprobApis: LOGPROB_APIS,
  },
} as const satisfies Record<string, TeacherFacts>;

export type RolloutProviderName = keyof typeof ROLLOUT_FACTS;
export type JudgeProviderName = keyof typeof JUDGE_FACTS;
export type TeacherProviderName = keyof typeof TEACHER_FACTS;

/** A table's names as zod's enum wants them (a non-empty tuple). */
export function providerNames<K extends string>(table: Readonly<Record<K, unknown>>): [K, ...K[]] {
  return Object.keys(table) as [K, ...K[]];
}

type Sections = { rollout: { provider: string }; judge: { provider: string }; teacher: { provider: string } };

export const rolloutFacts = (c: Pick<Sections, 'rollout'>): RolloutFacts =>
  providerRow<RolloutFacts>(ROLLOUT_FACTS, c.rollout.provider, 'rollout.provider');
export const judgeFacts = (c: Pick<Sections, 'judge'>): ProviderFacts =>
  providerRow<ProviderFacts>(JUDGE_FACTS, c.judge.provider, 'judge.provider');
export const teacherFacts = (c: Pick<Sections, 'teacher'>): TeacherFacts =>
  providerRow<TeacherFacts>(TEACHER_FACTS, c.teacher.provider, 'teacher.provider');
