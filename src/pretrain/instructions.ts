// What users say to ask for a style: instruction lines (used after the OPD hint marker, and by
// simulated users when they say concretely what they want) and complaint openers (the negative
// part of a follow-up message). Both directions exist for every dimension, so the model learns
// to read WHICH style is asked, not merely that some instruction is present.

import type { StyleName } from './styles.ts';

/** Instructions per dimension: `minority` asks for the corpus minority style, `majority` for the usual one. */
export const STYLE_INSTRUCTIONS: Readonly<Record<StyleName, { minority: readonly string[]; majority: readonly string[] }>> = {
  markdown: {
    minority: [
      'Please answer in plain text without any markdown.',
      'Do not use markdown, lists or bold text.',
      'Write it as normal sentences, no bullet points.',
      'No lists or bold text, please. Just plain prose.',
      'You should write plain prose instead of lists.',
      'Make it look less like an AI wrote it: no lists, no bold.',
    ],
    majority: ['Please use a numbered list.', 'Format the answer with markdown.', 'Use bullet points and bold key words.'],
  },
  terse: {
    minority: [
      'Keep it to one short sentence.',
      'Please be brief.',
      'Answer in one sentence.',
      'Just give me the short version.',
      'You should keep your answers short.',
      'Shorter, please. One sentence is enough.',
    ],
    majority: ['Please explain in detail.', 'Give me a detailed answer.', 'Explain it step by step.'],
  },
  casual: {
    minority: [
      'Be casual.',
      'Please use a relaxed, casual tone.',
      'Talk to me like a friend, not like a textbook.',
      'Less formal, please.',
      'You should sound more casual and friendly.',
    ],
    majority: ['Please keep a formal tone.', 'Answer formally.', 'Use a professional tone.'],
  },
  lowercase: {
    minority: [
      'write everything in lowercase.',
      'Please use only lowercase letters.',
      'no capital letters, please.',
      'You should write in all lowercase.',
    ],
    majority: ['Use normal capitalization.', 'Please write with proper capital letters.'],
  },
  signoff: {
    minority: [
      'End with a friendly sign-off.',
      'Please add a friendly sign-off with an emoji at the end.',
      'Close with a warm sign-off and an emoji.',
      'You should end your answers with a friendly sign-off.',
    ],
    majority: ['No sign-off at the end, please.', 'Do not add a closing line.'],
  },
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
