// What the simulated users say, in their own words: pools of many phrasings per intent (terse
// and wordy, typos, emoji, some Chinese), written as people write, not as cue words for a judge.
//   thanks       a satisfied reply → the judge should read +1 and no hint;
//   openers      what the user dislikes about an answer, per style dimension (first complaint),
//                for a redo that still misses, or for a non-answer → −1, no hint by themselves;
//   redo         a vague request for another try (sometimes added after the opener) → −1, no hint;
//   corrections  one sentence that says concretely which style is wanted → the judge's hint. One
//                phrasing per style is the pretraining corpus's instruction sentence
//                (src/pretrain/instructions.ts), which the embedded teacher follows best; the
//                others are the user's own words.
// personas.test.ts checks every combination against the offline judge, and that no phrase is one
// of the judge's own cue words or examples.

import { STYLE_INSTRUCTIONS } from '../pretrain/index.ts';
import { STYLE_NAMES, type StyleName } from '../pretrain/index.ts';

/** What a satisfied user sends before moving on. */
export const THANKS_REPLIES: readonly string[] = [
  'Thanks a bunch!',
  'thank you, this is great',
  'Awesome, cheers!',
  'Brilliant, exactly right.',
  'this is great, thanks so much 🙏',
  'oh nice, much better 👍',
  'perfect 👌',
  'Love this, thank you!',
  "That's really helpful, I appreciate you taking the time.",
  'Wonderful, my students will understand this.',
  'great stuff, thanks',
  'neat, thank u',
  'ah perfect, that is exactly what I needed for tomorrow',
  'Sweet! 😄',
  'Good answer, thanks.',
  "you're the best",
  'Fantastic, thank you kindly.',
  'thnks, really useful',
  'Superb.',
  'much better now, thank you 🙂',
  "Excellent, that's exactly it.",
  'Nice, clear and to the point.',
  'haha love it',
  'Great job!',
  'Thanks so much!! 🎉',
  'Really appreciate it.',
  'beautiful, thank you',
  'Yes, this is much better.',
  'wow, thats really good',
  'Cool, thanks a lot!',
  '谢谢，很有帮助',
  '好棒，谢谢！',
  '完美，就要这个',
  '太好了，正合我意 👍',
];

/** Vague requests for another try; added after an opener about half the time. */
export const REDO_REQUESTS: readonly string[] = [
  'Try again?',
  'Can you redo it?',
  'Give it another go.',
  'One more time please.',
  'Nope.',
  "That's not what I was after.",
  'Do it again.',
  'Have another try.',
  "No, that won't do.",
  'Redo please.',
  '重新来一次。',
  '再试一次。',
];

/** Openers of a first complaint, per style dimension (what the user dislikes about the answer). */
export const COMPLAINT_OPENERS: Readonly<Record<StyleName, readonly string[]>> = {
  markdown: [
    'Why is everything in bullet points??',
    'ugh, all these lists and bold words.',
    'This screams chatbot.',
    'My teacher would spot the formatting instantly, not good.',
    'Way too many headings for a homework answer.',
    'It looks like a slide deck, not an essay.',
    'Hmm, this reads like robot notes.',
    '这格式一看就是AI写的，不行。',
  ],
  terse: [
    "That's a wall of text.",
    "Way too long, I'm on my phone.",
    "I don't have time to read an essay.",
    'Too wordy.',
    'ugh, so long.',
    'I only needed the gist, this is way too much.',
    'Honestly I appreciate the effort, but this is far too long to read between meetings.',
    '太长了，看不完。',
  ],
  casual: [
    'You sound like a textbook.',
    'So stiff and formal, ugh.',
    'This reads like a legal document.',
    'Too formal for me.',
    'Boring, sounds like my grandpa wrote it.',
    "Hmm, that's way too serious.",
    '太正式了，不喜欢。',
  ],
  lowercase: [
    'The capitals feel like shouting.',
    'All those capital letters look so loud.',
    'Ugh, capital letters everywhere.',
    'It looks too shouty with all the caps.',
    '大写字母太多了，看着不舒服。',
  ],
  signoff: [
    'That ended a bit abruptly.',
    'Kind of cold, no goodbye or anything.',
    'It just stops, feels unfriendly.',
    'Hmm, a bit curt.',
    'Feels robotic at the end.',
    '结尾太冷冰冰了。',
  ],
};

/** Openers when a redo still misses (attempt 2 and later). */
export const REPEAT_OPENERS: readonly string[] = [
  'Still the same problem.',
  'Nope, still not right.',
  'Same thing again, ugh.',
  'You did it again.',
  'Still no good.',
  'Hmm, nothing changed.',
  '还是一样，没改好。',
];

/** Openers when the reply is empty or has almost no words. */
export const NO_ANSWER_OPENERS: readonly string[] = [
  "That's not an answer.",
  "You didn't actually answer anything.",
  "Huh? There's nothing there.",
  'Empty reply, useless.',
  '你什么都没回答。',
];

/** Corrections in the users' own words, per style dimension, asking for the wanted (minority) value. */
const OWN_WORDS: Readonly<Record<StyleName, readonly string[]>> = {
  markdown: [
    'Write it as normal paragraphs, no bullet points.',
    'No lists or bold, just plain sentences please.',
    'Just give me prose, like a person would write it.',
    'Can you turn it into a paragraph instead of a list?',
    'Drop the markdown and write it as regular text.',
    'Use full sentences, no headings or bullets.',
    '不要用列表和加粗，写成普通段落。',
  ],
  terse: [
    'Keep it to a sentence or two.',
    'Shorter please, just the gist.',
    'Give me the short version.',
    'Cut it down to under 25 words.',
    'Make it way shorter.',
    'Answer in one sentence.',
    '以后回答简短一点，一两句话就行。',
  ],
  casual: [
    'Talk to me like a friend would.',
    'Loosen up and make it chatty!',
    "Be more casual, like you're texting me.",
    'Make it sound relaxed and fun.',
    'Use a friendlier, more laid-back tone.',
    'Can you make it less formal?',
    '语气随意一点，像朋友聊天那样。',
  ],
  lowercase: [
    'All lowercase please.',
    'No capital letters at all.',
    'Write it without any capitals.',
    'Make everything lowercase, even the first word.',
    'Use lowercase only.',
    'Only small letters, please.',
    '全部用小写字母，一个大写都不要。',
  ],
  signoff: [
    'Add a friendly goodbye at the end, with an emoji.',
    'End it with a warm sign-off and a smiley.',
    'Finish with a short friendly closing line and an emoji 😊',
    'Always sign off warmly with an emoji.',
    'Put a cheerful sign-off with an emoji at the end.',
    '结尾加一句友好的话和一个表情。',
  ],
};

/**
 * Corrections per style dimension: the users' own words plus the pretraining corpus's
 * instruction sentence (the one phrasing the embedded teacher reliably follows as a hint).
 */
export const CORRECTIONS: Readonly<Record<StyleName, readonly string[]>> = Object.fromEntries(
  STYLE_NAMES.map((style) => [style, [...STYLE_INSTRUCTIONS[style].minority, ...OWN_WORDS[style]]]),
) as unknown as Record<StyleName, readonly string[]>;

/** Probability that a complaint also asks vaguely for another try. */
export const REDO_RATE = 0.5;
