// What users say to ask for a style: instruction lines (used after the OPD hint marker, and by
// simulated users when they say concretely what they want) and complaint openers (the negative
// part of a follow-up message). Both directions exist for every dimension, so the model learns
// to read WHICH style is asked, not merely that some instruction is present.

import type { StyleName } from './styles.ts';

/**
 * The one instruction sentence per dimension and direction: `minority` asks for the corpus
 * minority style, `majority` for the usual one. One fixed sentence, repeated verbatim, is far
 * easier for a tiny model to learn to follow than many paraphrases, and following hints is what
 * makes distillation work: the OPD teacher is this model reading the same sentence as a hint.
 * The simulated users' corrections (src/sim/phrases.ts) are exactly the `minority` sentences.
 * Each starts with "Please" so the rules judge extracts it whole as the hint.
 */
export const STYLE_INSTRUCTIONS: Readonly<Record<StyleName, { minority: readonly string[]; majority: readonly string[] }>> = {
  markdown: {
    minority: ['Please write plain prose without lists or bold text.'],
    majority: ['Please use a numbered list with bold key words.'],
  },
  terse: { minority: ['Please keep the answer short.'], majority: ['Please explain it in detail.'] },
  casual: { minority: ['Please use a casual, friendly tone.'], majority: ['Please keep a formal tone.'] },
  lowercase: { minority: ['Please write everything in lowercase.'], majority: ['Please use normal capital letters.'] },
  signoff: { minority: ['Please end with a friendly sign-off and an emoji.'], majority: ['Please do not add a sign-off.'] },
};

/** Openers of a complaint about the majority style of each dimension (followed by an instruction). */
export const COMPLAINTS: Readonly<Record<StyleName, readonly string[]>> = {
  markdown: ['This looks like a robot wrote it.', 'Too many lists and bold text.', 'Hmm, that is not what I wanted.'],
  terse: ['That is way too long.', 'Too much text.', 'Hmm, that is not what I wanted.'],
  casual: ['You sound so stiff.', 'That is too formal for me.', 'Hmm, that is not what I wanted.'],
  lowercase: ['The capital letters feel loud to me.', 'Hmm, that is not what I wanted.'],
  signoff: ['That felt a bit cold.', 'A bit abrupt.', 'Hmm, that is not what I wanted.'],
};

/** Follow-ups of a satisfied user. */
export const THANKS: readonly string[] = ['Thanks, that helps.', 'Great, thank you.', 'Perfect, thanks!', 'thx', 'Got it, thanks.'];

/** System prompts some dialogues start with. */
export const SYSTEM_PROMPTS: readonly string[] = [
  'You are a helpful assistant.',
  'You are a helpful assistant that answers everyday questions.',
  'You are OpenClaw, a personal assistant.',
];
