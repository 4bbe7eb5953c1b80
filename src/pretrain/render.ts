// Renders a topic's answer in a chosen combination of the five styles. Each dimension is applied
// by its own step (structure: terse/elaborate × markdown/plain; then tone; then sign-off; then
// letter case), so the dimensions stay independent and every combination is possible.

import type { Rng } from '../rl/index.ts';
import type { Styles } from './styles.ts';
import type { Topic } from './topics.ts';

/** Uniform choice from a non-empty list. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng.uniform() * items.length)];
}

/** Friendly closing lines; the emoji is what makes them a sign-off for the detector. */
export const SIGNOFFS: readonly string[] = [
  'Hope this helps! 😊',
  'Good luck! 🍀',
  'Have fun with it! 🙂',
  'Enjoy! ✨',
  'Happy to help! 😊',
  'Best of luck! 👍',
];

const FORMAL_OPENERS = ['Certainly. ', 'Good question. ', 'Of course. '];
const CASUAL_OPENERS = ['Hey! ', 'Oh, nice question! ', 'Ooh, good one! ', 'Yeah, so ', 'Hey there! '];
const CASUAL_TERSE_OPENERS = ['Hey, ', 'Oh, ', 'Yeah, ', 'Ooh, '];
const CASUAL_CLOSERS = [' Super easy, right?', ' You got this!', ' Super simple!'];
const PROSE_CONNECTORS: Record<number, string[]> = { 3: ['First,', 'Then', 'Finally,'], 4: ['First,', 'Next,', 'Then', 'Finally,'] };

// Formal phrase → casual phrase. Word boundaries keep "cannot" from touching "can".
const CASUAL_SWAPS: Array<[RegExp, string]> = [
  [/\bdo not\b/g, "don't"],
  [/\bDo not\b/g, "Don't"],
  [/\bdoes not\b/g, "doesn't"],
  [/\bcannot\b/g, "can't"],
  [/\bis not\b/g, "isn't"],
  [/\bit is\b/g, "it's"],
  [/\bIt is\b/g, "It's"],
  [/\byou will\b/g, "you'll"],
  [/\byou are\b/g, "you're"],
  [/\bthey are\b/g, "they're"],
  [/\bthat is\b/g, "that's"],
  [/\bwant to\b/g, 'wanna'],
  [/\bgoing to\b/g, 'gonna'],
  [/\bvery\b/g, 'super'],
  [/\bkind of\b/g, 'kinda'],
  [/\ba little\b/g, 'a bit'],
];

/** Formal wording → casual wording (contractions and slang). */
export function casualize(text: string): string {
  return CASUAL_SWAPS.reduce((t, [pattern, swap]) => t.replace(pattern, swap), text);
}

function lcFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Replaces the final full stop with an exclamation mark (casual answers sound excited). */
function exclaim(text: string): string {
  return text.replace(/\.\s*$/, '!');
}

/** Bolds the first three words of a sentence. */
function boldLead(sentence: string): string {
  const words = sentence.split(' ');
  return `**${words.slice(0, 3).join(' ')}** ${words.slice(3).join(' ')}`.trimEnd();
}

function terseAnswer(rng: Rng, topic: Topic, s: Styles): string {
  let sentence = topic.summary;
  if (s.casual) sentence = exclaim(casualize(sentence));
  if (s.markdown) sentence = boldLead(sentence);
  if (s.casual) return pick(rng, CASUAL_TERSE_OPENERS) + lcFirst(sentence);
  return rng.uniform() < 0.2 ? `In short, ${lcFirst(sentence)}` : sentence;
}

function markdownBody(rng: Rng, topic: Topic, tone: (t: string) => string): string {
  const numbered = rng.uniform() < 0.6;
  const bold = rng.uniform() < 0.85;
  return topic.steps
    .map(([key, detail], i) => {
      const marker = numbered ? `${i + 1}.` : '-';
      const head = bold ? `**${key}.**` : `${key}.`;
      return `${marker} ${head} ${tone(detail)}`;
    })
    .join('\n');
}

function proseBody(topic: Topic, tone: (t: string) => string): string {
  const connectors = PROSE_CONNECTORS[topic.steps.length] ?? topic.steps.map(() => 'Also,');
  return topic.steps.map(([key, detail], i) => `${connectors[i]} ${lcFirst(key)}. ${tone(detail)}`).join(' ');
}

function elaborateAnswer(rng: Rng, topic: Topic, s: Styles): string {
  const tone = s.casual ? casualize : (t: string) => t;
  let opening = tone(topic.intro);
  if (s.casual) opening = pick(rng, CASUAL_OPENERS) + opening;
  else if (rng.uniform() < 0.3) opening = pick(rng, FORMAL_OPENERS) + opening;
  const withTip = rng.uniform() < 0.7;
  let tip = withTip ? tone(topic.tip) : '';
  let text: string;
  if (s.markdown) {
    if (withTip && rng.uniform() < 0.5) tip = `**Tip:** ${tip}`;
    text = `${opening}\n\n${markdownBody(rng, topic, tone)}${withTip ? `\n\n${tip}` : ''}`;
  } else {
    const body = proseBody(topic, tone);
    text = withTip ? (rng.uniform() < 0.5 ? `${opening} ${body}\n\n${tip}` : `${opening} ${body} ${tip}`) : `${opening} ${body}`;
  }
  if (s.casual) text = rng.uniform() < 0.4 ? text + pick(rng, CASUAL_CLOSERS) : exclaim(text);
  return text;
}

/** The answer to `topic` in exactly the styles `s` (detectStyles(answer) equals s). */
export function renderAnswer(rng: Rng, topic: Topic, s: Styles): string {
  let text = s.terse ? terseAnswer(rng, topic, s) : elaborateAnswer(rng, topic, s);
  if (s.signoff) text += `\n\n${pick(rng, SIGNOFFS)}`;
  return s.lowercase ? text.toLowerCase() : text;
}

/** A short reply to the user's thanks, in the given tone and case. */
export function renderThanksReply(rng: Rng, s: Pick<Styles, 'casual' | 'lowercase'>): string {
  const text = s.casual
    ? pick(rng, ['No problem! Happy to help.', "Anytime! Let me know if you've got more questions.", 'Glad it helped!'])
    : pick(rng, ['You are welcome. Let me know if you have any other questions.', 'I am glad it helped.', 'You are welcome.']);
  return s.lowercase ? text.toLowerCase() : text;
}
