// What the simulated users say. Three kinds of text, each written so the rules judge
// (src/scoring/rules.ts) reads it the way a person means it:
//   thanks       a positive cue (thanks, great, perfect, 谢谢) and nothing else → +1, no hint;
//   complaints   an opener about the unwanted style plus a redo request that always carries a
//                negative cue ("redo", "try again", "not what I wanted") and never a correction
//                cue ("please", "you should", "don't", "instead") → −1, no hint by itself;
//   corrections  one sentence stating the wanted style that the judge extracts whole as the hint
//                ("please …"). They are the pretraining corpus's own instruction sentences
//                (src/pretrain/instructions.ts, one per style, each starting with "Please"), so
//                the teacher model, which learned to follow exactly these sentences, shifts
//                toward the wanted style under the hint.
// sim.test.ts checks every combination against the rules judge.

import { STYLE_INSTRUCTIONS } from '../pretrain/instructions.ts';
import { STYLE_NAMES, type StyleName } from '../pretrain/styles.ts';

/** What a satisfied user sends before moving on. */
export const THANKS_REPLIES: readonly string[] = [
  'Thanks, that is great!',
  'Perfect, thank you.',
  'Great, thanks!',
  'Thanks, that helps a lot.',
  'Got it, thanks.',
  'thx, exactly what I needed',
  '谢谢！',
];

/** Asks for another try; each carries a negative cue and no correction cue. */
export const REDO_REQUESTS: readonly string[] = ['Can you redo it?', 'Try again.', 'Could you try again?', 'Redo it.', 'That is not what I wanted.'];

/** Openers of a first complaint, per style dimension (what the user dislikes about the answer). */
export const COMPLAINT_OPENERS: Readonly<Record<StyleName, readonly string[]>> = {
  markdown: ['This looks like a robot wrote it.', 'Too many lists and bold text.', 'My teacher will know an AI wrote this.', 'Hmm.'],
  terse: ['That is way too long.', 'Too much text.', 'I do not have time to read all that.', 'Hmm.'],
  casual: ['You sound so stiff.', 'That is too formal for me.', 'This reads like a textbook.', 'Hmm.'],
  lowercase: ['The capital letters feel loud to me.', 'All those capitals look shouty.', 'Hmm.'],
  signoff: ['That felt a bit cold.', 'A bit abrupt.', 'It just stops without a friendly word.', 'Hmm.'],
};

/** Openers when a redo still misses (attempt 2 and later). */
export const REPEAT_OPENERS: readonly string[] = ['Still the same problem.', 'Nope, not yet.', 'Almost, but no.', 'Hmm, again.'];

/** Openers when the reply is empty or has almost no words. */
export const NO_ANSWER_OPENERS: readonly string[] = ['You did not really answer.', 'That is hardly an answer.'];

/**
 * Concrete corrections per style dimension, asking for the wanted (minority) value: exactly the
 * pretraining corpus's instruction sentence, so the teacher (the base model reading it as a hint)
 * follows it as reliably as it learned to.
 */
export const CORRECTIONS: Readonly<Record<StyleName, readonly string[]>> = Object.fromEntries(
  STYLE_NAMES.map((style) => [style, STYLE_INSTRUCTIONS[style].minority]),
) as Record<StyleName, readonly string[]>;
