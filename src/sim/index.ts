// sim: simulated users that talk to the RL server like a real OpenAI client.
//  - Personas: each wants one style dimension of the pretraining corpus; `rate(answer)` (0/1, via
//    detectStyles) is the benchmark yardstick, `respond/reply` writes the next user message
//    (thanks, or a complaint with a redo request and sometimes a concrete correction = hint).
//  - Tasks: TRAIN_TASKS for training episodes, HELD_OUT_TASKS (other topics and phrasings) for
//    the rating metric.
//  - runEpisode: one multi-turn session over /v1/chat/completions with X-Session-Id,
//    X-Turn-Type: main, and a closing main request with X-Session-Done that carries the last
//    reply (so the last answer gets judged). Returns the first answer's rating and the transcript.
//  - evaluatePersona: mean rating of first answers on held-out tasks, sent as side turns.
// Inputs: a base URL (and key, model id), a persona, a seeded random source. Outputs: ratings.

export {
  createPersona,
  isAnswer,
  correctionProbability,
  PERSONAS,
  PERSONA_NAMES,
  MIN_ANSWER_WORDS,
  CORRECTION_ESCALATION,
  type Persona,
  type PersonaName,
  type PersonaReply,
  type RandomSource,
} from './personas.ts';
export { THANKS_REPLIES, REDO_REQUESTS, COMPLAINT_OPENERS, REPEAT_OPENERS, NO_ANSWER_OPENERS, CORRECTIONS } from './phrases.ts';
export { TRAIN_TASKS, HELD_OUT_TASKS, HELD_OUT_TOPIC_IDS, pickTask, type Task } from './tasks.ts';
export { requestAnswer, chatCompletionsUrl, turnHeaders, type ChatClientOptions, type TurnMeta } from './client.ts';
export {
  runEpisode,
  DEFAULT_MAX_TURNS,
  DEFAULT_CLOSE_MAX_TOKENS,
  type EpisodeOptions,
  type EpisodeResult,
  type EpisodeTurn,
} from './episode.ts';
export { evaluatePersona, type EvaluateOptions, type EvaluationResult, type RatedAnswer } from './evaluate.ts';
export { Rng, deriveSeed } from '../rl/index.ts';
