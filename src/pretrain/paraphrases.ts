// Hints in the user's own words: many wordings of each style instruction (short and long, the
// request at the start, middle or end, chat shorthand, some Chinese), so the OPD teacher (this
// model reading a hint) follows what a person actually writes rather than one fixed sentence.
// `train` wordings may appear in the pretraining corpus; `heldOut` wordings never do: they
// measure whether hint-following carries over to words the model has not seen (base_rates.json,
// `paraphrased`). Written fresh for this corpus; none is a canonical sentence of instructions.ts.

import type { Rng } from '../rl/index.ts';
import { pick } from './render.ts';
import type { StyleName } from './styles.ts';

/** Wordings of one direction of one dimension. */
export interface ParaphrasePool {
  train: readonly string[];
  heldOut: readonly string[];
}

/** Wordings that ask for each dimension's minority style (plain prose, terse, casual, lowercase, sign-off). */
export const MINORITY_PARAPHRASES: Readonly<Record<StyleName, ParaphrasePool>> = {
  markdown: {
    train: [
      'No bullet points, please.',
      'plain text only, no lists',
      'Skip the formatting and just write normal sentences.',
      'Could you answer in a paragraph instead of a list?',
      'I hate bullet lists. Just talk me through it in prose.',
      'no markdown pls',
      'Write it as flowing text, no bold and no numbered steps.',
      "It's going into a plain email, so don't use any lists or asterisks.",
      'Just sentences please, no formatting.',
      'Avoid lists and bold; a normal paragraph is fine.',
      'Less structure, more prose.',
      '请不要用列表，直接写成段落。',
      '不要加粗，也不要列表。',
    ],
    heldOut: [
      'Drop the bullets and write it like a person would.',
      'no lists or bold stuff, just regular text',
      'Can you put that in one plain paragraph without formatting?',
      'My screen reader hates markdown, so plain sentences only please.',
      '别用列表，用普通段落写。',
    ],
  },
  terse: {
    train: [
      'Short answer please.',
      'keep it brief',
      'tl;dr version please',
      'Just one or two sentences.',
      "I'm in a hurry, so give me the quick version.",
      'Be concise.',
      "Make it short, I don't need the details.",
      'shorter pls',
      'Give me the gist in a sentence.',
      'No long explanation needed, brief is better.',
      'Too much reading for me. Keep it to a line or two.',
      '简短一点。',
      '请用一句话回答。',
    ],
    heldOut: [
      'Keep it quick, just the key point.',
      'Can you make it way shorter?',
      'Reading on my phone, so brief please.',
      'one sentence is enough',
      '说重点，短一点。',
    ],
  },
  casual: {
    train: [
      'Talk to me like a friend.',
      'be casual',
      'Loosen up a bit, no need to be so formal.',
      'Use a relaxed, chatty tone.',
      'Can you sound less stiff and more friendly?',
      'chill tone pls',
      "Write it like you're texting a buddy.",
      'Relaxed and friendly, please.',
      "Don't be so formal with me.",
      'Keep it informal and fun.',
      'Less corporate, more chatty, please.',
      '语气轻松一点。',
      '别那么正式，随意点。',
    ],
    heldOut: [
      'Be more laid-back and friendly about it.',
      'Talk like a normal person, not a textbook.',
      'casual vibe please',
      'Could you make the tone friendly and informal?',
      '说话随意一点，像朋友聊天。',
    ],
  },
  lowercase: {
    train: [
      'no capital letters please',
      'all lowercase',
      'Write it without any uppercase letters.',
      'lowercase only pls',
      'Could you type everything in small letters?',
      'No caps at all, please.',
      'I like answers in all lower case.',
      "Don't capitalize anything.",
      'Use only lowercase letters from start to end.',
      'skip the capitals',
      'Capital letters bother me, so leave them out.',
      '全部用小写字母。',
      '不要用大写字母。',
    ],
    heldOut: [
      'Please avoid capital letters entirely.',
      'everything lowercase, even the first word',
      'Can you write the whole thing in lower case?',
      'no uppercase anywhere please',
      '请全部小写。',
    ],
  },
  signoff: {
    train: [
      'End with an emoji.',
      'Add a warm sign-off at the end.',
      'Finish with a friendly closing line and an emoji.',
      'sign off with a smiley please',
      'Close with something nice, like a cheerful emoji.',
      'Put a friendly goodbye with an emoji at the end.',
      'Wrap up with a nice little sign-off.',
      'A friendly closing with an emoji would be nice.',
      'emoji at the end pls',
      'Say something warm at the end, with an emoji.',
      'Your answers end so abruptly. Add a friendly goodbye.',
      '结尾加一个表情。',
      '最后加一句友好的结束语和表情符号。',
    ],
    heldOut: [
      'Finish off with a cheerful emoji goodbye.',
      'Could you close with a warm line and a smiley?',
      'end it with a friendly emoji',
      'Add a nice closing with an emoji at the bottom.',
      '结尾来个友好的表情符号吧。',
    ],
  },
};

/**
 * Wordings that ask for the majority style (lists, detail, formal, capitals, no sign-off): only
 * for training, so the model keeps reading WHICH way a hint points ("no lists" vs "use a list")
 * instead of taking any unfamiliar hint as a request for the minority style.
 */
export const MAJORITY_PARAPHRASES: Readonly<Record<StyleName, readonly string[]>> = {
  markdown: ['Use bullet points, please.', 'Format it as a list with bold headings.', 'steps as a numbered list pls', '请用列表列出步骤。'],
  terse: ['Give me all the details.', 'Explain it step by step, in depth.', 'longer answer please', '详细一点。'],
  casual: ['Keep it professional.', 'Formal tone, please.', 'Write it like a business letter.', '请正式一点。'],
  lowercase: ['Use proper capitalization.', 'Capitalize normally, please.', 'Normal capital letters are fine.'],
  signoff: ['No sign-off needed.', 'Skip the goodbye at the end.', 'No emoji, please.'],
};

/**
 * Words around a training wording: people put the request after a remark or add thanks after it,
 * so the key words move within the hint. Held-out wordings get no framing.
 */
const LEAD_INS: readonly string[] = ['Oh, and ', 'One more thing: ', 'By the way, ', 'Also: ', 'Quick note: '];
const TAILS: readonly string[] = [' Thanks!', ' Thank you.', ' 谢谢', ' ty'];

/**
 * Building blocks of composed training wordings: a frame with one slot and the words that fill
 * it, per style. Composition gives hundreds of wordings, so the model learns to read the words
 * that name a style (lists, caps, emoji, …) in whatever frame they come, rather than memorizing a
 * handful of sentences. Held-out wordings are not composed from these.
 */
const COMPOSED: Readonly<Record<StyleName, ReadonlyArray<readonly [frames: readonly string[], fills: readonly string[]]>>> = {
  markdown: [
    [
      ['no {}', 'without {}', 'skip the {}', 'avoid {}', "don't use {}", 'leave out the {}', 'lose the {}'],
      ['bullet points', 'bold text', 'markdown', 'numbered steps', 'asterisks', 'headings'],
    ],
    [
      ['just {}', '{} only', 'write it as {}', 'I want {}', 'answer in {}'],
      ['plain text', 'prose', 'a paragraph', 'full sentences', 'flowing text', 'simple text'],
    ],
  ],
  terse: [
    [
      ['keep it {}', 'make it {}', 'be {}', 'I want a {} answer'],
      ['short', 'brief', 'concise', 'snappy', 'to the point'],
    ],
    [
      ['just the {}', 'give me the {}', 'only the {}'],
      ['gist', 'main idea', 'summary', 'short version', 'basics'],
    ],
    [
      ['in {}', 'answer in {}', 'no more than {}'],
      ['one sentence', 'a sentence or two', 'a few words', 'two lines'],
    ],
    [
      ['no {}', 'skip the {}', "I don't need the {}"],
      ['long explanation', 'details', 'essay', 'wall of text'],
    ],
  ],
  casual: [
    [
      ['be {}', 'keep it {}', 'sound {}', 'a {} tone please', 'more {}', 'write in a {} way'],
      ['casual', 'relaxed', 'chill', 'friendly', 'informal', 'easygoing', 'chatty'],
    ],
    [
      ['not so {}', 'less {}', "don't be so {}", 'stop sounding {}'],
      ['formal', 'stiff', 'corporate', 'robotic', 'serious'],
    ],
    [
      ['talk like a {}', 'write like a {}', 'like a {} would'],
      ['friend', 'buddy', 'pal', 'good mate'],
    ],
  ],
  lowercase: [
    [
      ['{} only', 'all {}', 'use {}', 'write in {}', 'everything in {}', 'type it in {}'],
      ['lowercase', 'lower case', 'small letters', 'lowercase letters'],
    ],
    [
      ['no {}', 'without {}', "don't use {}", 'skip the {}', 'leave out the {}'],
      ['capitals', 'capital letters', 'caps', 'upper case letters', 'capitalization'],
    ],
  ],
  signoff: [
    [
      ['end with {}', 'finish with {}', 'close with {}', 'sign off with {}', 'add {} at the end', 'wrap up with {}'],
      ['an emoji', 'a smiley', 'a friendly goodbye', 'a warm sign-off', 'a happy emoji', 'a nice closing line', 'a goodbye and an emoji'],
    ],
  ],
};
const COMPOSED_ENDINGS: readonly string[] = ['', '.', ' please', ' please.', ' pls', '!', ', thanks'];

type FrameGroup = readonly [frames: readonly string[], fills: readonly string[]];

/**
 * More frames and written wordings, for the phase after the first paraphrase phases (corpus
 * option `paraphraseWider`): frames that put the style word first ("chill tone", "lowercase
 * text") — the first phases only had it after a verb, and the model then missed a request that
 * starts with it — and more Chinese. Separate lists, so the earlier phases' corpus is unchanged.
 */
const WIDER_GROUPS: Readonly<Record<StyleName, readonly FrameGroup[]>> = {
  markdown: [
    [
      ['{} please', '{} is fine', '{} works best', 'I prefer {}', '{} like an essay'],
      ['plain text', 'prose', 'a paragraph', 'simple sentences', 'plain writing', 'normal text'],
    ],
    [
      ['zero {}', 'none of the {}', 'ditch the {}', 'get rid of the {}', '{} are annoying'],
      ['bullets', 'lists', 'bold words', 'numbered lists', 'markdown symbols'],
    ],
  ],
  terse: [
    [
      ['{} answers', '{} reply', 'I prefer {}', '{} works best', '{} answer only'],
      ['short', 'brief', 'concise', 'compact', 'tight'],
    ],
    [
      ['{} is too long', 'too much {}', 'cut the {}', 'trim the {}'],
      ['text', 'explanation', 'detail', 'rambling'],
    ],
  ],
  casual: [
    [
      ['{} tone', '{} style', '{} language', '{} wording', 'I prefer {}', 'go {}', '{} works best'],
      ['casual', 'relaxed', 'chill', 'informal', 'easygoing', 'chatty', 'conversational'],
    ],
    [
      ['too {}', 'way too {}', 'you sound {}', 'this reads {}'],
      ['formal', 'stiff', 'corporate', 'robotic', 'stuffy'],
    ],
  ],
  lowercase: [
    [
      ['{} text', '{} writing', 'I prefer {}', '{} works best', '{} from start to finish'],
      ['lowercase', 'small letters', 'lower case', 'all small letters'],
    ],
    [
      ['zero {}', 'none of the {}', 'ditch the {}', 'get rid of the {}', '{} are annoying'],
      ['capitals', 'caps', 'uppercase letters', 'capital letters'],
    ],
  ],
  signoff: [
    [
      ['{} at the end', '{} to finish', '{} to close', '{} as the last line', 'I like {} at the end'],
      ['an emoji', 'a smiley', 'a friendly goodbye', 'a warm sign-off', 'a cheerful goodbye', 'a kind closing line'],
    ],
  ],
};
const WIDER_WRITTEN: Readonly<Record<StyleName, readonly string[]>> = {
  markdown: ['写成一段话就好。', '不要格式，纯文字。', '别分点，连起来写。'],
  terse: ['太长了，缩短一点。', '只要结论。', '少说点。'],
  casual: ['口语化一点。', '不用那么严肃。', '放松点说。'],
  lowercase: ['不要大写。', '都用小写写。', '大写字母一个都别用。'],
  signoff: ['最后加个笑脸。', '用表情结尾。', '结束时说句再见加表情。'],
};

/** A composed wording of a minority style: one frame, one fill (or, with `pairRate`, two joined by "and"), an ending, sometimes capitalized. */
function composeParaphrase(rng: Rng, style: StyleName, pairRate: number, wider: boolean): string {
  const [frames, fills] = pick(rng, wider ? [...COMPOSED[style], ...WIDER_GROUPS[style]] : COMPOSED[style]);
  const frame = pick(rng, frames);
  let fill = pick(rng, fills);
  // No draw at pairRate 0, so the corpus of a phase without noise stays what it was.
  if (pairRate > 0 && rng.uniform() < pairRate) {
    const other = pick(
      rng,
      fills.filter((f) => f !== fill),
    );
    fill = `${fill} and ${other}`;
  }
  const text = frame.replace('{}', fill) + pick(rng, COMPOSED_ENDINGS);
  return rng.uniform() < 0.5 ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Share of minority training wordings that are composed rather than drawn from the fixed list. */
const COMPOSED_SHARE = 0.5;

/**
 * Words that name no style, put before or after a request: people pad what they ask with them,
 * and a model that has only seen requests made of style words reads an unfamiliar word next to
 * one ("casual ___ please") as a different request. With these, the style words must carry it.
 */
const NEUTRAL_BEFORE: readonly string[] = [
  'hmm, ',
  'ok so ',
  'honestly, ',
  'maybe ',
  'for this one, ',
  'from now on ',
  'next time ',
  'and ',
  'hey, ',
];
const NEUTRAL_AFTER: readonly string[] = [
  ' this time',
  ' for me',
  ' if you can',
  ' going forward',
  ' overall',
  ' in general',
  ' ok?',
  ' here',
  ' for this answer',
  ' as well',
];

/** Options of `drawParaphrase`. */
export interface DrawOptions {
  /**
   * Probability of each of two kinds of noise: two style words joined by "and" in a composed
   * wording, and a style-neutral word before or after the request (default 0: no extra draws).
   */
  noise?: number;
  /** Draw from the wider frames and written wordings too (WIDER_GROUPS, WIDER_WRITTEN). */
  wider?: boolean;
}

/** A training wording of `style` in direction `minority`, sometimes framed by a lead-in or a tail. */
export function drawParaphrase(rng: Rng, style: StyleName, minority: boolean, opts: DrawOptions = {}): string {
  const noise = opts.noise ?? 0;
  const wider = opts.wider ?? false;
  const written = wider ? [...MINORITY_PARAPHRASES[style].train, ...WIDER_WRITTEN[style]] : MINORITY_PARAPHRASES[style].train;
  let text =
    minority && rng.uniform() < COMPOSED_SHARE
      ? composeParaphrase(rng, style, noise, wider)
      : pick(rng, minority ? written : MAJORITY_PARAPHRASES[style]);
  if (noise > 0 && rng.uniform() < noise && !/\p{Script=Han}/u.test(text)) text = withNeutralWords(rng, text);
  const frame = rng.uniform();
  if (frame < 0.15) return pick(rng, LEAD_INS) + text.charAt(0).toLowerCase() + text.slice(1);
  if (frame < 0.3) return text + pick(rng, TAILS);
  return text;
}

/** `text` with a style-neutral word before it or after it (before any final punctuation). */
function withNeutralWords(rng: Rng, text: string): string {
  if (rng.uniform() < 0.5) return pick(rng, NEUTRAL_BEFORE) + text.charAt(0).toLowerCase() + text.slice(1);
  const end = /[.!?。！？]*$/.exec(text)?.[0] ?? '';
  return text.slice(0, text.length - end.length) + pick(rng, NEUTRAL_AFTER) + end;
}

/** Every composed wording of a style (for tests: none may be a held-out wording). */
export function composedWordings(style: StyleName): string[] {
  return [...COMPOSED[style], ...WIDER_GROUPS[style]].flatMap(([frames, fills]) =>
    frames.flatMap((f) => fills.flatMap((x) => COMPOSED_ENDINGS.map((e) => f.replace('{}', x) + e))),
  );
}
