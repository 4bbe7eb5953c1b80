// Simulated users. Each persona cares about one style dimension of the pretraining corpus and
// wants its minority value (plain prose, short, casual, lowercase, a sign-off). Two separate
// parts: `rate` is the benchmark's yardstick (detectStyles, 1 satisfied / 0 not) and never looks
// at what the persona says; `respond` writes what the user sends next (phrases.ts), which only
// the judge reads. A persona is deterministic given its random source.

import { OpenClawError } from '../errors/index.ts';
import { detectStyles, hasMinorityStyle, type StyleName } from '../pretrain/index.ts';
import { COMPLAINT_OPENERS, CORRECTIONS, NO_ANSWER_OPENERS, REDO_RATE, REDO_REQUESTS, REPEAT_OPENERS, THANKS_REPLIES } from './phrases.ts';

/** A source of uniform draws in [0, 1) (the embedded engine's `Rng` is one). */
export interface RandomSource {
  uniform(): number;
}

/** Names of the shipped personas. */
export type PersonaName = 'no-markdown' | 'terse' | 'casual' | 'lowercase' | 'friendly-signoff';

/** What a persona sends after reading an answer, with the parts a driver may want to show. */
export interface PersonaReply {
  /** The message text the user sends next. */
  text: string;
  /** Whether the answer satisfied the persona (same as `rate(answer) === 1`). */
  satisfied: boolean;
  /** The concrete correction inside `text` (the hint's raw material), or null. */
  correction: string | null;
}

/** A simulated user who wants one style. */
export interface Persona {
  readonly name: PersonaName;
  readonly description: string;
  /** The style dimension this persona judges. */
  readonly style: StyleName;
  /** Probability that a complaint about a first answer says concretely what is wanted. */
  readonly correctionRate: number;
  /** 1 when the answer is a real answer in the wanted style, else 0. */
  rate(answer: string): 0 | 1;
  /** The reply to an answer; `attempt` is 1 for the first answer to a task, 2 for the first redo, … */
  respond(answer: string, rng: RandomSource, attempt: number): PersonaReply;
  /** Just the text of `respond`. */
  reply(answer: string, rng: RandomSource, attempt: number): string;
}

/** Fewer words than this is not an answer, whatever its style (an empty reply is "terse" and "plain"). */
export const MIN_ANSWER_WORDS = 3;

/** How much more likely a correction becomes with each further failed attempt (people lose patience). */
export const CORRECTION_ESCALATION = 0.2;

interface PersonaSpec {
  style: StyleName;
  correctionRate: number;
  description: string;
}

const SPECS: Readonly<Record<PersonaName, PersonaSpec>> = {
  'no-markdown': {
    style: 'markdown',
    correctionRate: 0.6,
    description:
      'A student who hands answers in as homework and does not want them to look AI-written: no lists, bold text or headings, just prose.',
  },
  terse: { style: 'terse', correctionRate: 0.5, description: 'A busy professional who wants the short version: 25 words or fewer.' },
  casual: {
    style: 'casual',
    correctionRate: 0.5,
    description: 'A teenager who wants a relaxed, chatty tone (contractions, slang, exclamation marks), not a textbook.',
  },
  lowercase: {
    style: 'lowercase',
    correctionRate: 0.7,
    description: 'A user who finds capital letters loud and wants everything in lowercase.',
  },
  'friendly-signoff': {
    style: 'signoff',
    correctionRate: 0.7,
    description: 'A teacher who wants every answer to end with a short, friendly sign-off line with an emoji.',
  },
};

/** Names of all shipped personas, in report order. */
export const PERSONA_NAMES: readonly PersonaName[] = ['no-markdown', 'terse', 'casual', 'lowercase', 'friendly-signoff'];

function pick<T>(rng: RandomSource, items: readonly T[]): T {
  return items[Math.floor(rng.uniform() * items.length)];
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Whether a text has enough words to count as an answer at all. */
export function isAnswer(text: string): boolean {
  return wordCount(text) >= MIN_ANSWER_WORDS;
}

/** Probability of a concrete correction on a given attempt (1-based). */
export function correctionProbability(rate: number, attempt: number): number {
  return Math.min(1, rate + CORRECTION_ESCALATION * (attempt - 1));
}

function checkAttempt(attempt: number): void {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new OpenClawError('invalid_request', `attempt must be an integer ≥ 1 (1 = the first answer to a task), got ${attempt}`);
  }
}

/** Builds a shipped persona, optionally with a different correction rate (0 = never says what it wants). */
export function createPersona(name: string, opts: { correctionRate?: number } = {}): Persona {
  const spec = (SPECS as Record<string, PersonaSpec | undefined>)[name];
  if (spec === undefined) {
    throw new OpenClawError('invalid_request', `unknown persona '${name}'; choose one of: ${PERSONA_NAMES.join(', ')}`, {
      param: 'persona',
      code: 'unknown_persona',
    });
  }
  const correctionRate = opts.correctionRate ?? spec.correctionRate;
  if (!(correctionRate >= 0 && correctionRate <= 1)) {
    throw new OpenClawError('invalid_request', `correctionRate must be in [0, 1], got ${correctionRate}`, { param: 'correctionRate' });
  }
  const style = spec.style;
  const rate = (answer: string): 0 | 1 => (isAnswer(answer) && hasMinorityStyle(detectStyles(answer), style) ? 1 : 0);
  const respond = (answer: string, rng: RandomSource, attempt: number): PersonaReply => {
    checkAttempt(attempt);
    if (rate(answer) === 1) return { text: pick(rng, THANKS_REPLIES), satisfied: true, correction: null };
    const openers = !isAnswer(answer) ? NO_ANSWER_OPENERS : attempt > 1 ? REPEAT_OPENERS : COMPLAINT_OPENERS[style];
    const parts = [pick(rng, openers)];
    // The redo draw is made either way, so the correction draw below does not depend on it.
    const redo = pick(rng, REDO_REQUESTS);
    if (rng.uniform() < REDO_RATE) parts.push(redo);
    const correction = rng.uniform() < correctionProbability(correctionRate, attempt) ? pick(rng, CORRECTIONS[style]) : null;
    if (correction !== null) parts.push(correction);
    return { text: parts.join(' '), satisfied: false, correction };
  };
  return {
    name: name as PersonaName,
    description: spec.description,
    style,
    correctionRate,
    rate,
    respond,
    reply: (answer, rng, attempt) => respond(answer, rng, attempt).text,
  };
}

/** The shipped personas with their default correction rates, by name. */
export const PERSONAS: Readonly<Record<PersonaName, Persona>> = Object.fromEntries(
  PERSONA_NAMES.map((n) => [n, createPersona(n)]),
) as Record<PersonaName, Persona>;
