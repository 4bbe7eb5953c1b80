// The training sample: what a judged turn becomes (docs/design.md §2) and what the trainer consumes.

/** How a sample was made: binary RL, on-policy distillation, or both. */
export type SampleType = 'rl' | 'opd' | 'opd+rl';

/** One judge vote: +1/0/-1, or 'fail' when the call failed or the answer had no boxed score. */
export type Vote = 1 | 0 | -1 | 'fail';

/** A training sample with everything needed to train on it and to explain where it came from. */
export interface Sample {
  /** Unique id: `${sessionId}:${turnId}`. */
  id: string;
  sessionId: string;
  turnId: number;
  /** Policy version that generated the response (for the staleness bound). */
  policyVersion: number;
  promptIds: number[];
  responseIds: number[];
  rolloutLogprobs: number[];
  /** 1 = train on this sample; 0 = kept for the record but contributes nothing. */
  lossMask: 0 | 1;
  /** PRM score r in {+1, 0, -1} (0 for pure OPD samples). */
  reward: number;
  /** Teacher log-probs of the response under the hinted prompt, or null (pure RL). */
  teacherLogprobs: number[] | null;
  teacherTopK: { ids: number[]; logprobs: number[] }[] | null;
  /**
   * The hinted prompt the teacher scored the response under (distillation samples); absent or
   * null otherwise, and on samples stored before schema 3. The replay evaluation scores new
   * answers under it.
   */
  teacherPromptIds?: number[] | null;
  type: SampleType;
  votes: Vote[];
  hint: string | null;
  createdAt: number;
}
