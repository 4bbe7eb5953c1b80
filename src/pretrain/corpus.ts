// The synthetic pretraining corpus: short assistant dialogues whose answers vary along five
// independent style dimensions with a skewed base distribution, plus instruction-conditioned
// dialogues (the last user message carries an OPD-style hint line asking for a style, and the
// answer follows it) and multi-turn snippets (thanks, or a complaint and a redo in the asked
// style). Deterministic: the same seed gives the same corpus.

import { HINT_MARKER } from '../scoring/index.ts';
import type { ChatMessage } from '../engines/types.ts';
import { Rng } from '../rl/index.ts';
import { COMPLAINTS, STYLE_INSTRUCTIONS, SYSTEM_PROMPTS, THANKS } from './instructions.ts';
import { drawParaphrase } from './paraphrases.ts';
import { pick, renderAnswer, renderThanksReply } from './render.ts';
import { MINORITY, STYLE_NAMES, type StyleName, type Styles } from './styles.ts';
import { HELD_OUT_TEMPLATES, QUESTION_TEMPLATES, TOPICS, question, type Topic } from './topics.ts';

/** Knobs of the generator (all probabilities in [0, 1]). */
export interface CorpusOptions {
  /**
   * Probability that an unprompted answer takes the minority value of each dimension. Terse, casual
   * and sign-off default to 0.12, the others to 0.2: a small model leaks hinted styles into
   * unhinted answers, and these three leaked most (0.2 gave 29–36% unhinted in the 1300-step base).
   */
  minorityRate?: Partial<Record<StyleName, number>>;
  /** Share of single-turn dialogues whose user message carries a style instruction (default 0.4). */
  hintRate?: number;
  /** Probability that an answer follows an asked style (default 0.95). */
  followRate?: number;
  /** Share of two-turn dialogues (default 0.06). */
  multiTurnRate?: number;
  /** Share of dialogues with a system prompt (default 0.3). */
  systemRate?: number;
  /**
   * Share of instructions (hint lines and redo requests) worded as a training paraphrase
   * (paraphrases.ts) instead of the canonical sentence (default 0). At 0 the generator draws
   * exactly as before, so the corpus of the earlier phases stays the same.
   */
  paraphraseRate?: number;
  /**
   * Noise in the training wordings (paraphrases.ts `DrawOptions.noise`): two style words joined
   * by "and", style-neutral words around the request (default 0: the wordings of the first
   * paraphrase phase).
   */
  paraphraseNoise?: number;
  /** Training wordings from the wider frames and written lists too (paraphrases.ts WIDER_GROUPS). */
  paraphraseWider?: boolean;
}

/** Defaults of CorpusOptions. */
export const DEFAULT_CORPUS: Required<Omit<CorpusOptions, 'minorityRate'>> & { minorityRate: Record<StyleName, number> } = {
  minorityRate: { markdown: 0.2, terse: 0.12, casual: 0.12, lowercase: 0.2, signoff: 0.12 },
  hintRate: 0.4,
  followRate: 0.95,
  multiTurnRate: 0.06,
  systemRate: 0.3,
  paraphraseRate: 0,
  paraphraseNoise: 0,
  paraphraseWider: false,
};

/** How a dialogue was made. */
export type DialogueKind = 'plain' | 'hinted' | 'redo' | 'thanks';

/** One generated dialogue; the last message is the assistant answer to train on. */
export interface Dialogue {
  messages: ChatMessage[];
  kind: DialogueKind;
  topicId: string;
  /** Styles the last answer was rendered with (absent for replies to thanks). */
  styles: Styles | null;
  /** Styles asked for by the hint line or the complaint, with the asked value. */
  asked: Partial<Styles>;
}

/** One instruction chosen for a dialogue. */
interface Ask {
  style: StyleName;
  value: boolean;
  text: string;
}

/** Appends an instruction to a user message exactly as hint injection does (docs/design.md §2). */
export function withHint(userText: string, instruction: string): string {
  return `${userText}\n\n${HINT_MARKER}\n${instruction}`;
}

/** CorpusOptions with every default filled in. */
export function resolveCorpusOptions(opts: CorpusOptions = {}): typeof DEFAULT_CORPUS {
  return { ...DEFAULT_CORPUS, ...opts, minorityRate: { ...DEFAULT_CORPUS.minorityRate, ...opts.minorityRate } };
}

/** Independent draws of the five dimensions from the base distribution. */
function drawStyles(rng: Rng, rates: Record<StyleName, number>): Styles {
  const s = {} as Styles;
  for (const name of STYLE_NAMES) s[name] = rng.uniform() < rates[name] ? MINORITY[name] : !MINORITY[name];
  return s;
}

/** The words of one instruction: a training paraphrase with probability paraphraseRate, else the canonical sentence. */
function instructionText(rng: Rng, style: StyleName, minority: boolean, cfg: ParaphraseKnobs): string {
  // No draw at rate 0: the corpus of a run without paraphrases is the one it always was.
  if (cfg.paraphraseRate > 0 && rng.uniform() < cfg.paraphraseRate)
    return drawParaphrase(rng, style, minority, { noise: cfg.paraphraseNoise, wider: cfg.paraphraseWider });
  return pick(rng, STYLE_INSTRUCTIONS[style][minority ? 'minority' : 'majority']);
}

type ParaphraseKnobs = Pick<typeof DEFAULT_CORPUS, 'paraphraseRate' | 'paraphraseNoise' | 'paraphraseWider'>;

/** One or (20%) two instructions on different dimensions; 80% ask for the minority style. */
function drawAsks(rng: Rng, cfg: ParaphraseKnobs): Ask[] {
  const first = pick(rng, STYLE_NAMES);
  const styles =
    rng.uniform() < 0.2
      ? [
          first,
          pick(
            rng,
            STYLE_NAMES.filter((s) => s !== first),
          ),
        ]
      : [first];
  return styles.map((style) => {
    const minority = rng.uniform() < 0.8;
    return { style, value: minority ? MINORITY[style] : !MINORITY[style], text: instructionText(rng, style, minority, cfg) };
  });
}

/** Applies asked styles to drawn ones, each followed with probability followRate. */
function follow(rng: Rng, drawn: Styles, asks: readonly Ask[], followRate: number): Styles {
  const s = { ...drawn };
  for (const ask of asks) if (rng.uniform() < followRate) s[ask.style] = ask.value;
  return s;
}

function opening(rng: Rng, cfg: typeof DEFAULT_CORPUS, topic: Topic, templates: readonly string[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (rng.uniform() < cfg.systemRate) messages.push({ role: 'system', content: pick(rng, SYSTEM_PROMPTS) });
  messages.push({ role: 'user', content: question(pick(rng, templates), topic) });
  return messages;
}

function singleTurn(rng: Rng, cfg: typeof DEFAULT_CORPUS, topic: Topic): Dialogue {
  const messages = opening(rng, cfg, topic, QUESTION_TEMPLATES);
  const hinted = rng.uniform() < cfg.hintRate;
  const asks = hinted ? drawAsks(rng, cfg) : [];
  const styles = follow(rng, drawStyles(rng, cfg.minorityRate), asks, cfg.followRate);
  if (hinted) {
    const last = messages[messages.length - 1];
    last.content = withHint(last.content as string, asks.map((a) => a.text).join(' '));
  }
  messages.push({ role: 'assistant', content: renderAnswer(rng, topic, styles) });
  return {
    messages,
    kind: hinted ? 'hinted' : 'plain',
    topicId: topic.id,
    styles,
    asked: Object.fromEntries(asks.map((a) => [a.style, a.value])),
  };
}

function twoTurn(rng: Rng, cfg: typeof DEFAULT_CORPUS, topic: Topic): Dialogue {
  const messages = opening(rng, cfg, topic, QUESTION_TEMPLATES);
  const first = drawStyles(rng, cfg.minorityRate);
  messages.push({ role: 'assistant', content: renderAnswer(rng, topic, first) });
  const unwanted = STYLE_NAMES.filter((name) => first[name] !== MINORITY[name]);
  if (unwanted.length === 0 || rng.uniform() < 0.4) {
    messages.push({ role: 'user', content: pick(rng, THANKS) });
    messages.push({ role: 'assistant', content: renderThanksReply(rng, first) });
    return { messages, kind: 'thanks', topicId: topic.id, styles: null, asked: {} };
  }
  const style = pick(rng, unwanted);
  messages.push({ role: 'user', content: `${pick(rng, COMPLAINTS[style])} ${instructionText(rng, style, true, cfg)}` });
  const redo = follow(rng, first, [{ style, value: MINORITY[style], text: '' }], cfg.followRate);
  messages.push({ role: 'assistant', content: renderAnswer(rng, topic, redo) });
  return { messages, kind: 'redo', topicId: topic.id, styles: redo, asked: { [style]: MINORITY[style] } };
}

/** One dialogue from a seeded generator. */
export function generateDialogue(rng: Rng, opts: CorpusOptions = {}): Dialogue {
  const cfg = resolveCorpusOptions(opts);
  const topic = pick(rng, TOPICS);
  return rng.uniform() < cfg.multiTurnRate ? twoTurn(rng, cfg, topic) : singleTurn(rng, cfg, topic);
}

/** `count` dialogues from `seed` (same seed, same dialogues). */
export function generateCorpus(count: number, seed: number, opts: CorpusOptions = {}): Dialogue[] {
  const rng = new Rng(seed);
  return Array.from({ length: count }, () => generateDialogue(rng, opts));
}

/** A prompt never seen in the corpus: a known topic asked with a held-out phrasing. */
export interface HeldOutPrompt {
  topicId: string;
  text: string;
}

/** Every topic × held-out template, for measuring the model on phrasings it did not train on. */
export function heldOutPrompts(): HeldOutPrompt[] {
  return HELD_OUT_TEMPLATES.flatMap((template) => TOPICS.map((topic) => ({ topicId: topic.id, text: question(template, topic) })));
}
