// The English NLP layer of the offline judge: wink-nlp with its English lite model (MIT, shipped
// as npm packages, nothing downloaded at run time). It gives tokens, lemmas, part-of-speech tags,
// negation scope and a lexicon sentiment score (with intensifiers, negation and emoji), which the
// reader in english.ts combines. Loaded once, lazily (about 70 ms), then ~0.03 ms per clause.

import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** One token of a clause as the reader needs it. */
export interface Token {
  /** Lower-cased text. */
  text: string;
  lemma: string;
  /** Universal POS tag (VERB, NOUN, ADJ, PRON, DET, AUX, PART, ADP, INTJ, SYM, PUNCT, …). */
  pos: string;
  /** Inside the scope of a negation ("not", "n't", "never", "no"). */
  negated: boolean;
  /** wink token type: word, number, emoji, emoticon, punctuation, … */
  type: string;
}

/** What wink read in one piece of text. */
export interface Analysis {
  tokens: Token[];
  /** Lexicon sentiment in [−1, 1]. */
  sentiment: number;
}

type Wink = ReturnType<typeof winkNLP>;
let wink: Wink | null = null;

/** Tokens, tags, negation and sentiment of an English text. */
export function analyse(text: string): Analysis {
  wink ??= winkNLP(model);
  const its = wink.its;
  const doc = wink.readDoc(text);
  const tokens = doc.tokens();
  const words = tokens.out() as string[];
  const lemmas = tokens.out(its.lemma as Parameters<typeof tokens.out>[0]) as string[];
  const pos = tokens.out(its.pos) as string[];
  const neg = tokens.out(its.negationFlag) as unknown as boolean[];
  const types = tokens.out(its.type) as string[];
  return {
    tokens: words.map((w, i) => ({
      text: w.toLowerCase(),
      lemma: (lemmas[i] ?? w).toLowerCase(),
      pos: pos[i] ?? 'X',
      negated: neg[i] === true,
      type: types[i] ?? 'word',
    })),
    sentiment: doc.out(its.sentiment) as unknown as number,
  };
}
