// The offline judge's reader of a user's reply (`judge.provider: rules`). First the rules: signals
// that settle a whole reply (signals.ts: approving negation, defect questions, sarcasm, wrong
// window, a repeat of the request), then sentences and clauses (English with wink-nlp, Chinese
// with cue lists; languages.ts for ja/es/de/fr):
//   −1  a complaint (sentiment, structure or a bare "no"), or an instruction to change this answer;
//    0  a follow-up question, a new task, an acknowledgement ("ok", "I see"), or nothing readable;
//   +1  praise or relief without complaint, or with only a wish for later ("thanks! next time …").
// Then the reply classifier (reply-model.ts, weights in reply-model.json from scripts/train-judge.ts)
// reads the rules' verdict and cues with the words and character n-grams, and overrules the score
// when it is sure (p ≥ 0.6) and the rules are not (never the sign of a structural complaint or of
// unmixed strong praise). Hint: the instruction part of each sentence, or on a failure the
// correction it states ("It's Canberra.", corrections.ts). Deterministic: same text, same verdict.

import { join } from 'node:path';
import {
  DOMAIN_NEGATIVE,
  DOMAIN_PHRASES_NEGATIVE,
  DOMAIN_PHRASES_POSITIVE,
  DOMAIN_POSITIVE,
  FUTURE,
  readEnglishClause,
} from './english.ts';
import { INSTRUCTION_ZH, NEGATIVE_ZH, POSITIVE_ZH, hasCjk, readChineseClause } from './chinese.ts';
import { correctionHint, mergeHints } from './corrections.ts';
import { asksForMore, standsBefore } from './follow-up.ts';
import { quotedHint } from './hint-extent.ts';
import { detectLanguage, readOtherLanguage } from './languages.ts';
import { reasksAnswer } from './re-ask.ts';
import { committedModel } from './committed-model.ts';
import { replyConfidence } from './confidence.ts';
import { type ReplyModel, predictScore, replyFeatures } from './reply-model.ts';
import { aboutSurroundings, readIntlSignals, readSignals } from './signals.ts';
import type { ClauseReading, FeedbackReading } from './types.ts';

export type { ClauseReading, FeedbackReading } from './types.ts';
export { RULE_EXAMPLES, type RuleExample } from './examples.ts';

// A comma, then "not" and a noun phrase; "not really/sure/bad/…" are hedges, not contrasts.
const CONTRAST =
  /,\s*not\s+(?!(?:really|quite|sure|yet|bad|too|very|that|what|it|so|just|only|at|even|exactly|much|great|good|helpful)\b)[\p{L}\d]/iu;

/** Verbs of code work that wink often tags as nouns ("stream it line by line", "type the payload as …"). */
const CODE_VERB =
  /^(?:just |then |pls |please )?(?:output|print|stream|aggregate|sum|type|group|filter|cache|batch|wrap|escape|quote|parse|validate|retry|lock|paginate|chunk|index|join|count|pin|bump|upgrade|downgrade|install|import|export|call|pass|set|pipe|log|read|write|load|close|await|catch|throw|raise|sanitize|sanitise|normalize|normalise|debounce|memoize|hash|encode|decode|compare|order|limit|round|cast|guard|mock|seed|migrate|revert|rebase|squash|commit|push|pull|deploy|restart|reload)\b\s+\S/i;

const DESCRIBES_ANSWER = /^(it|this|that|these|those)('s| is| was| looks| reads| sounds| feels| seems)\b/i;

/** Instruction cues that ask for something next time, not a change to this answer. */
const FUTURE_CUE = /^instruction:"(?:from now on|zh:"(?:以后|下次|今后)"|future)"$/;

/** A future marker in any language the judge reads. */
const WISH_FOR_LATER =
  /\b(next time|in (?:the )?future|for future|from now on|going forward|for (?:the )?(?:next|other|upcoming) \w+|la próxima|a futuro|en el futuro|de (?:aquí|ahora) en adelante|la prochaine fois|les prochaines fois|à l'avenir|désormais|dorénavant|in zukunft|künftig|nächstes mal|beim nächsten mal)\b|以后|下次|今后|次回|次から|今後|これから/iu;

/** Praise below this polarity is too faint to count ("ok", "hmm"). */
const POSITIVE_AT = 0.25;
/** A clause at or below this polarity complains. */
const NEGATIVE_AT = -0.25;

/** The classifier overrules the rules only when at least this sure (leave-one-group-out, docs/judge.md). */
const OVERRIDE_AT = 0.6;

/** Whole-reply readings the classifier may not overrule: more work on a result, asides, deferrals. */
const SURE_SIGNAL =
  /^(builds on|not about the answer|accepts an offer|exclaimed yes|deferred|asked again|\w\w:acknowledgement|correction after wait|second thought|stated swap|said otherwise|gave up|reported failure|reaction:.*)$/;

const KEEPS_THIS_ONE =
  /^(?:\W|but|and|though)*(this one(?:'?s| is) (fine|just \w+[^.!?]*no (biggie|big deal))|no (biggie|big deal)|this one is fine|no need to (redo|change) (this|it)|not needed (for|in) this one|这次(不用|不必)改|这次就这样)\W*$/i;
/** A reported result: "logs show up now", "applied cleanly", "tests pass". */
const RESULT =
  /\b(now|works?|worked|working|applied|shipped|passe[sd]|fixed|done|merged|deployed|running|green|succeeded|cleanly|show(s)? up|went through)\b/i;

/** The committed classifier (reply-model.json, written by scripts/train-judge.ts), loaded once; null if absent. */
export const loadReplyModel = committedModel<ReplyModel>(join(import.meta.dirname, 'reply-model.json'));

/** A reading with the judge's confidence in it and the doubts that lowered it (confidence.ts). */
export interface JudgedReading extends FeedbackReading {
  confidence: number;
  doubts: string[];
}

/** `readFeedback`, with its confidence: what `judge.min_confidence` compares. */
export function judgeReply(
  text: string,
  context: { request?: string; answer?: string } = {},
  model: ReplyModel | null = loadReplyModel(),
): JudgedReading {
  const reading = readFeedback(text, context, model);
  let sign: 1 | 0 | -1 | null = null;
  const lang = detectLanguage(text);
  // A whole-reply signal the rules are sure of (a correction after "wait", a sticker) is not doubted by the classifier.
  if (model !== null && lang !== 'und' && !reading.cues.some((c) => SURE_SIGNAL.test(c))) {
    const { score, probs } = predictScore(model, replyFeatures(text, reading, lang));
    if (probs[score + 1] >= OVERRIDE_AT) sign = score;
  }
  const c = replyConfidence(text, reading, sign);
  return { ...reading, confidence: c.value, doubts: c.doubts };
}

/**
 * Reads a user's reply (plain text, internal context already removed): the rules' reading, then
 * the classifier's score over it (`model` null: the rules alone). The hint is looked for on −1,
 * and on +1 only when the rules read a wish for later; never on 0.
 */
export function readFeedback(
  text: string,
  context: { request?: string; answer?: string } = {},
  model: ReplyModel | null = loadReplyModel(),
): FeedbackReading {
  const rules = readFeedbackByRules(text, context);
  const lang = detectLanguage(text);
  let reading = model === null ? rules : overruledByModel(rules, text, lang, model);
  // A failure that states what was right ("It's Canberra.", "是5个不是4个") carries its hint too.
  const correction = reading.score === -1 ? correctionHint(text, lang) : null;
  if (reading.score === -1) {
    const hint = mergeHints(reading.hint, correction);
    if (hint !== reading.hint) reading = { ...reading, hint, cues: [...reading.cues, 'stated correction'] };
  }
  // How much of the reply the hint quotes (hint-extent.ts); the "when" of a wish only on +1.
  if (reading.hint !== null) reading = { ...reading, hint: quotedHint(reading.hint, reading.score === 1) };
  return reading;
}

/** The rules' reading, with the classifier's score where it is sure and the rules are not. */
export function overruledByModel(
  rules: FeedbackReading,
  text: string,
  lang: string,
  model: ReplyModel,
  overrideAt = OVERRIDE_AT,
): FeedbackReading {
  // A script no reader knows stays unread (0, "language not read"); the classifier reads every other
  // language: it is trained on the assistant sets' thirteen too (leave-one-group-out over them:
  // 0.920 accuracy, 30 sign flips in 2925 replies, against 0.908 and 33 when it read only the first six).
  if (lang === 'und') return rules;
  const { score, probs } = predictScore(model, replyFeatures(text, rules, lang));
  if (score === rules.score || probs[score + 1] < overrideAt || rulesAreSure(rules, score)) return rules;
  // A wish for later the rules read as a change ("Parfait ! Pour les prochaines fois, écris …") stays the hint of a +1.
  const wish = score === 1 && rules.hint !== null && WISH_FOR_LATER.test(rules.hint);
  const hint = score === -1 || (score === 1 && rules.score === 1) || wish ? rules.hint : null;
  return { score, hint, cues: [...rules.cues, `model:${score}:${probs[score + 1].toFixed(2)}`] };
}

/**
 * Where the rules are sure, the classifier may not flip the sign: a reply with a structural
 * complaint ("not good", "do it again") stays −1, unmixed strong praise ("Wonderful, …") stays +1;
 * nor the score of a whole-reply reading (more work on a result, an aside, a deferral), which the
 * n-grams of its words ("how do I …", "tomorrow") cannot tell from a plain question or a complaint.
 */
function rulesAreSure(rules: FeedbackReading, score: -1 | 0 | 1): boolean {
  if (rules.cues.some((c) => SURE_SIGNAL.test(c))) return true;
  // ja/es/de/fr: a complaint cue keeps −1 from flipping to +1, praise cues alone keep +1 from flipping to −1.
  if (rules.score === -1 && score === 1 && rules.cues.some((c) => /^\w\w:negative:/.test(c))) return true;
  if (rules.score === 1 && score === -1 && rules.cues.every((c) => /^\w\w:positive:/.test(c))) return true;
  // "Listo, el build salió sin errores", "no errors anymore": a negation that approves is read on purpose.
  if (rules.score === 1 && score === -1 && /^(\w\w:)?approving negation$/.test(rules.cues[0] ?? '')) return true;
  // A complaint, or a negative clause next to a correction ("That ended abruptly. Always sign off …").
  if (rules.score === -1 && score === 1)
    return rules.cues.some((c) => /^complaint:/.test(c)) || (rules.hint !== null && rules.cues.some((c) => /^negative:/.test(c)));
  if (rules.score === 1 && score === -1)
    return rules.cues.length === 1 && /^positive:/.test(rules.cues[0]) && Number(rules.cues[0].slice(9)) >= 0.75;
  // Nor to "no verdict": a request for another try ("ugh, so long. One more time please."), or a
  // change asked for after a clear complaint ("ugh, so long. Drop the markdown …", "Hmm, nothing
  // changed. 再试一次。 Drop the markdown …").
  if (rules.score === -1 && score === 0) {
    const strongNegative = rules.cues.some((c) => /^negative:/.test(c) && Number(c.slice(9)) <= -0.5);
    const instruction = rules.cues.some((c) => /^instruction:/.test(c));
    const complaint = rules.cues.some((c) => /^complaint:/.test(c));
    // … nor a complaint the sentiment reads as strongly negative too ("Kind of cold, no goodbye or anything.").
    return rules.cues.includes('complaint:"retry"') || ((strongNegative || complaint) && instruction) || (strongNegative && complaint);
  }
  return false;
}

/** The rules alone: signals, then clause by clause (English, Chinese) or by cue lists (ja/es/de/fr). */
export function readFeedbackByRules(text: string, context: { request?: string; answer?: string } = {}): FeedbackReading {
  const reading = readReplyByRules(text, context);
  // "ugh, Jira is down again", "今日は会議ばっかりで…": a plain complaint about the surroundings is an aside.
  const plainComplaint =
    reading.score === -1 &&
    reading.hint === null &&
    reading.cues.every((c) => /^(\w\w:)?(negative|complaint|positive)\b|^(new task|question)$/.test(c));
  return plainComplaint && aboutSurroundings(text) ? { score: 0, hint: null, cues: ['not about the answer', ...reading.cues] } : reading;
}

function readReplyByRules(text: string, context: { request?: string; answer?: string }): FeedbackReading {
  const lang = detectLanguage(text);
  // A script no reader knows: no verdict, and the record says why.
  if (lang === 'und') return { score: 0, hint: null, cues: ['language not read'] };
  if (lang !== 'en' && lang !== 'zh') {
    const shared = readIntlSignals(text);
    return shared !== null ? { score: shared.score, hint: shared.hint ?? null, cues: [shared.cue] } : readOtherLanguage(text, lang);
  }
  const signal = readSignals(text, context.request);
  const reading = readClauses(text);
  if (signal === null) {
    const asks = reading.score === 0 && reading.cues.some((c) => c === 'question' || c === 'new task');
    return asks && reasksAnswer(text, context.answer) ? { score: -1, hint: null, cues: ['asked again', ...reading.cues] } : reading;
  }
  // A failure signal keeps an instruction the reply also gives ("huh? … please write prose").
  if (signal.score === -1) return { score: -1, hint: signal.hint ?? reading.hint, cues: [signal.cue, ...reading.cues] };
  if (signal.score === 0) return { score: 0, hint: null, cues: [signal.cue] };
  // "leave it like that, it's good": the approving negation decides; only a wish for later stays.
  const future = reading.hint !== null && reading.cues.some((c) => FUTURE_CUE.test(c));
  return { score: 1, hint: future ? reading.hint : null, cues: [signal.cue, ...reading.cues] };
}

function readClauses(text: string): FeedbackReading {
  const cues: string[] = [];
  const hints: string[] = [];
  let negative = false;
  let positive = false;
  let buildsOn = false;
  const read: ClauseReading[] = [];
  for (const sentence of splitSentences(text)) {
    // "This one's fine.", "No need to redo this.", "这次不用改": this answer stands (a wish may follow).
    if (KEEPS_THIS_ONE.test(sentence)) {
      positive = true;
      cues.push('keeps this one');
      continue;
    }
    let clauses = splitClauses(sentence).map(readClause);
    // "Nice. Next step: can you add retries?", "got it, now how do I …": more work on a result.
    const more = clauses.findIndex((_, j) => asksForMore(sentence.slice(clauseOffset(sentence, clauses, j)), clauses.slice(j)));
    if (more >= 0 && standsBefore([...read, ...clauses.slice(0, more)])) {
      buildsOn = true;
      clauses = clauses.map((c, j) => (j < more ? c : { ...c, instruction: null, newTask: true, polarity: 0, question: false }));
    }
    read.push(...clauses);
    // "this will OOM on a 20GB file. stream it line by line": after a complaint, an imperative that
    // would open a new task says how to fix this one.
    const complainedBefore = read.slice(0, read.length - clauses.length).some((c) => c.complaint !== null || c.polarity <= NEGATIVE_AT);
    if (
      complainedBefore &&
      !clauses.some((c) => c.instruction !== null) &&
      (clauses[0]?.newTask || CODE_VERB.test(clauses[0]?.text ?? '')) &&
      !clauses[0].question
    )
      clauses[0] = { ...clauses[0], instruction: 'imperative after a complaint', newTask: false };
    // "tabs, not spaces" / "a summary, not an essay": the contrast is the instruction, whole.
    let first = clauses.findIndex((c) => c.instruction !== null);
    const contrast = CONTRAST.test(sentence) && first < 0;
    // "It looks like a slide deck, not an essay" describes the answer: a complaint, not an instruction.
    if (contrast && DESCRIBES_ANSWER.test(sentence)) clauses[0] = { ...clauses[0], complaint: 'X, not Y about the answer' };
    else if (contrast) {
      first = 0;
      clauses[0] = { ...clauses[0], instruction: 'X, not Y', complaint: null };
    }
    // "cold, no goodbye or anything": after a complaint, "no X" says what is missing, not what to do.
    if (
      first > 0 &&
      clauses[first].instruction === 'no X' &&
      clauses.slice(0, first).some((c) => c.complaint !== null || c.polarity <= NEGATIVE_AT)
    ) {
      clauses[first] = { ...clauses[first], instruction: null, complaint: 'missing X' };
      first = clauses.findIndex((c) => c.instruction !== null);
    }
    if (first >= 0) {
      hints.push(stripLeadingJoiners(sentence.slice(clauseOffset(sentence, clauses, first))));
      // "Could you keep answers under 200 words in general?": the limit is a wish for later.
      cues.push(`instruction:"${FUTURE.test(sentence) ? 'from now on' : clauses[first].instruction}"`);
    }
    for (const [i, c] of clauses.entries()) {
      if (first >= 0 && i >= first) continue;
      if (c.complaint !== null) {
        negative = true;
        cues.push(`complaint:"${c.complaint}"`);
      } else if (c.polarity <= NEGATIVE_AT && !c.question) {
        negative = true;
        cues.push(`negative:${c.polarity.toFixed(2)}`);
      } else if (c.polarity >= POSITIVE_AT && !c.question) {
        positive = true;
        cues.push(`positive:${c.polarity.toFixed(2)}`);
      } else if (c.newTask) cues.push('new task');
      else if (c.question) cues.push('question');
    }
  }
  const hint = hints.length > 0 ? hints.join(' ') : null;
  // Praise with a change to this answer is a correction (−1); praise with a wish for later
  // ("thanks! next time …") accepts this answer (+1) and keeps the wish as the hint.
  const futureOnly = cues.filter((c) => c.startsWith('instruction:')).every((c) => FUTURE_CUE.test(c));
  let score: 1 | 0 | -1 = 0;
  if (negative) score = -1;
  // A result reported before a wish for later accepts the answer too ("Applied cleanly. From now on …").
  else if (hint !== null) score = (positive || buildsOn || RESULT.test(text)) && futureOnly ? 1 : -1;
  else if (positive || buildsOn) score = 1;
  return { score, hint, cues: buildsOn ? [...cues, 'builds on'] : cues };
}

function readClause(text: string): ClauseReading {
  return hasCjk(text) ? readChineseClause(text) : readEnglishClause(text);
}

/** Splits on sentence ends (Latin and CJK) and line breaks; keeps the end mark with its sentence. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？;；])\s+|(?<=[。！？；])|\n+|(?<=\p{Extended_Pictographic}\uFE0F?)\s+(?=\p{L})/u)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}\p{Extended_Pictographic}]/u.test(s));
}

/** Splits a sentence into clauses at commas, colons, dashes and contrast words ("but", "though"). */
function splitClauses(sentence: string): string[] {
  return (
    sentence
      // A space between two Chinese characters separates clauses as a comma would ("很好 以后…").
      .split(
        /(?<=[,，:：、])\s*|\s+(?=(?:but|though|although|however)\b)|(?=(?:不过|但是|可是))|\s+[-–—]\s+|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])/i,
      )
      .map((s) => s.trim())
      .filter((s) => s !== '')
  );
}

/** Where clause `k` starts in its sentence (clauses are consecutive substrings). */
function clauseOffset(sentence: string, clauses: ClauseReading[], k: number): number {
  let at = 0;
  for (let i = 0; i <= k; i++) {
    const found = sentence.indexOf(clauses[i].text, at);
    if (found < 0) return at;
    if (i === k) return found;
    at = found + clauses[i].text.length;
  }
  return at;
}

/** Drops a leading "but"/"though"/"no,"/不过 that belongs to the clause before, not to the hint. */
function stripLeadingJoiners(hint: string): string {
  return hint
    .replace(
      /^(?:(?:but|though|although|however|and|so)\b[,\s]*|(?:just |only )?(?:the )?(?:one|only) (?:more |little )?thing\s*[:,–—-]?\s*|(?:no|nope|ok|okay)\s*,\s*|不过|但是|可是|就是)+/i,
      '',
    )
    .trim();
}

/**
 * The judge's own cue vocabulary: its domain word lists, set phrases and the alternatives of its
 * Chinese cue patterns. Simulated users must not speak in exactly these words (personas.test.ts),
 * so that the learning benchmark does not depend on phrases written for the judge.
 */
export function judgeCueWords(): string[] {
  const alternatives = (re: RegExp) =>
    re.source
      .split('|')
      .map((a) => a.replace(/\\b|[()^$?:!<=\\[\]{}.*+]/g, '').trim())
      .filter((a) => a !== '');
  return [
    ...DOMAIN_POSITIVE,
    ...DOMAIN_NEGATIVE,
    ...alternatives(DOMAIN_PHRASES_POSITIVE),
    ...alternatives(DOMAIN_PHRASES_NEGATIVE),
    ...alternatives(POSITIVE_ZH),
    ...alternatives(NEGATIVE_ZH),
    ...alternatives(INSTRUCTION_ZH),
  ];
}
export { judgeToolOutput, readToolOutput } from './tools/index.ts';
