// Reads one English clause of a user's reply with wink-nlp (nlp.ts): its polarity (wink's lexicon
// sentiment, which handles negation, intensity and emoji, plus a small lexicon of chat and
// software words wink does not score), whether it complains without a sentiment word (structure:
// "too X", "still …", a negated verb, "why would you …", "??"), and whether it is an instruction
// about the answer (imperative, "should", "no X", "only X", limits, "next time") or a new task.

import { analyse, type Token } from './nlp.ts';
import type { ClauseReading } from './types.ts';

// Words wink's lexicon leaves at 0 but that carry feedback in chat about software and writing.
// Scored like wink scores its own words (about ±0.5), and flipped when negated ("doesn't work").
export const DOMAIN_POSITIVE: ReadonlySet<string> = new Set([
  'lgtm',
  'ty',
  'thx',
  'tysm',
  'cheers',
  'work',
  'solve',
  'pass',
  'compile',
  'green',
  'nail',
  'lifesaver',
  'gold',
  'clean',
  'cleaner',
  'neat',
  'trick',
  'right',
  'correct',
  'merge',
  'spot',
  'impressed',
  'fast',
  'legend',
  'hero',
  'goat',
  'genius',
  'champ',
  '✔',
  '✔️',
  '☑️',
  '🚀',
  '✅',
  '🔥',
  '🙌',
  '💯',
  '👌',
  '🎉',
  '🙏',
  '❤️',
  '😍',
  '🥳',
]);
export const DOMAIN_NEGATIVE: ReadonlySet<string> = new Set([
  'meh',
  'ugh',
  'blank',
  'empty',
  'hang',
  'freeze',
  'crash',
  'broke',
  'broken',
  'break',
  'dead',
  'red',
  'off',
  'nothing',
  'hallucination',
  'garbage',
  'worse',
  'missing',
  'gone',
  'slow',
  'confusing',
  'lose',
  'lost',
  'ignore',
  'miss',
  'delete',
  'fail',
  'failing',
  'mistake',
  'wordy',
  'stiff',
  'blah',
  'hole',
  'abrupt',
  'abruptly',
  'curt',
  'robotic',
  'shouty',
  'shouting',
  'loud',
  'cold',
  'segfault',
  'segfaults',
  'panic',
  'panics',
  'exception',
  'traceback',
  'wipe',
  'wiped',
  'nuke',
  'nuked',
  'overwrote',
  'overwritten',
  'corrupt',
  'corrupted',
  'denied',
  'buggy',
  'oom',
  '👎',
  '😡',
  '🙄',
  '😤',
  '🤦',
]);
// Set phrases whose words mislead a lexicon ("trick" is negative on its own).
export const DOMAIN_PHRASES_POSITIVE =
  /\b(did|does|do) the trick\b|\bship it\b|\bspot on\b|\bnailed it\b|\bworks like a charm\b|\bchef'?s kiss\b|\bthat'?s the one\b|\bexactly what i (needed|wanted|was after)\b/;
export const DOMAIN_PHRASES_NEGATIVE =
  /\bwall of text\b|\btl;?dr\b|#(value|ref|n\/a|div\/0|name|num)[!?]|\b(?:slower|worse|buggier|laggier|flakier) (?:now|than before)\b/;
/** Words of a bare request for another try ("try again?", "give it another go", "redo please"). */
const RETRY_WORDS = new Set([
  'try',
  'retry',
  'redo',
  'again',
  'it',
  'that',
  'this',
  'do',
  'one',
  'more',
  'time',
  'another',
  'go',
  'have',
  'give',
  'shot',
  'attempt',
  'a',
  'please',
  'pls',
]);
const RETRY_CORE = /\b(try|retry|redo|again|another (go|try|shot|attempt)|one more time)\b/;
/** Negated verbs that report surprise or calm, not a problem ("didn't know you could do that"). */
const CALM_NEGATIONS = new Set(['know', 'realise', 'realize', 'expect', 'mind', 'worry', 'doubt', 'think', 'hear']);

/** Tokens read before the clause's head: politeness, discourse words, interjections. */
const FILLERS = new Set([
  'please',
  'pls',
  'plz',
  'just',
  'ok',
  'okay',
  'so',
  'and',
  'but',
  'though',
  'although',
  'however',
  'hmm',
  'hm',
  'well',
  'oh',
  'yeah',
  'kindly',
  'maybe',
  'btw',
  'also',
  'now',
  'then',
  'next',
  'again',
  'lol',
]);
/** Openers that start a new task rather than amend the answer. */
const TASK_OPENERS = new Set(['also', 'now', 'next', 'then', 'btw']);
/** Verbs that ask for new content or information; a correction only with a correction marker or "it". */
const TASK_VERBS = new Set([
  'write',
  'give',
  'explain',
  'summarise',
  'summarize',
  'tell',
  'show',
  'draft',
  'book',
  'remind',
  'translate',
  'find',
  'create',
  'list',
  'describe',
  'help',
  'generate',
  'plan',
  'compare',
  'search',
  'look',
  'send',
  'do',
  'let',
  'try',
  'go',
  'see',
]);
/** Verbs that amend an answer that exists. */
const CHANGE_VERBS = new Set([
  'make',
  'keep',
  'drop',
  'remove',
  'cut',
  'shorten',
  'rewrite',
  'redo',
  'fix',
  'change',
  'rename',
  'move',
  'put',
  'sort',
  'reorder',
  'add',
  'use',
  'skip',
  'reply',
  'answer',
  'respond',
  'format',
  'talk',
  'sound',
  'end',
  'start',
  'stick',
  'leave',
  'check',
  'handle',
  'include',
  'replace',
  'switch',
  'convert',
  'simplify',
  'trim',
  'lose',
  'tone',
  'cite',
  'capitalise',
  'capitalize',
  'lowercase',
  'indent',
  'split',
  'merge',
  'return',
  'run',
  'test',
  'quote',
  'spell',
  'wrap',
  'be',
]);
/** "no worries", "no notes", "no issues at all": "no" that approves, not "no X" that instructs. */
const NO_PROBLEM = new Set([
  'worries',
  'worry',
  'problem',
  'problems',
  'prob',
  'probs',
  'issues',
  'issue',
  'notes',
  'complaints',
  'complaint',
  'failures',
  'errors',
  'crashes',
  'bugs',
  'warnings',
  'regressions',
]);
const NEGATIVE_IMPERATIVES = new Set(['never', 'stop', 'avoid', 'quit', 'dont']);
const ANSWER_REFERENCES = new Set(['it', 'them', 'that', 'the', 'your', 'my', 'everything', 'all', 'each', 'every', 'this']);
const LIMIT =
  /\b(under|below|at most|max(imum)?|less than|fewer than|no more than|within|up to|not more than)\s+(\d+|one|two|three|four|five|ten|twenty|fifty|a hundred)\b|\b(\d+|one|two|three|four|five|ten)\s+\w+\s+(max|maximum|tops|or less|or fewer)\b|\bin (one|a single|two|three) (line|sentence|paragraph|word)s?\b/i;
const WRONG_ANSWER =
  /\byou (forgot|missed|left out|skipped|dropped|broke|deleted|removed|wiped|overwrote|ignored|mixed up|swapped)\b|\byou('ve| have)? (got|gotten) (them|it|these|those|the \w+) (swapped|backwards|reversed|wrong|mixed up|the wrong way)|\bbut i (specifically |clearly |explicitly )?(asked|said|wanted|requested|needed)\b|^i (specifically |clearly |explicitly )?(asked|said) for\b|\byou (gave|said|wrote|put|got) [\d$€£]|\b(longer|worse|slower|bigger|harder|more confusing|more complicated) than (the original|before|mine|it was|my version)\b|^(this|that|it)('s| is| was)\b.*\b(a |the )?(different|wrong) (document|file|question|person|thing|one|version|language|city|country|book|article|paper|text|email|code)\b/;
// "for the next time I forget how this works" is about the user, not a wish for the answers.
export const FUTURE =
  /\b((?:the )?next time(?! (?:(?:i|we) (?!prefer|want|would|'d|like|need)\w|you ask|it happens))|in (the )?future|for (the )?future|for future \w+|for (the )?(next|other|remaining|upcoming|later) \w+s|from now on|going forward|always|in general|every time|from here on)\b/i;
const WANT =
  /^i('d| would)? (want|need|prefer|'d like|would like|wanted)\s+(it|this|that|them|everything|all|you to|the answer|the reply)\b/i;
/** Who asks in "should I …?", "must we …?": the user wants advice, not a change. */
const ASKERS = new Set(['i', 'we']);
const QUESTION_WORDS = new Set(['what', 'how', 'why', 'where', 'when', 'which', 'who', 'whose', 'whats']);
/** Acknowledgements: a clause of only these says "received", not "good" (wink scores "ok" as praise). */
const ACKS = new Set([
  'ok',
  'okay',
  'k',
  'kk',
  'alright',
  'sure',
  'fine',
  'got',
  'it',
  'i',
  'see',
  'understood',
  'noted',
  'right',
  'yes',
  'yeah',
  'yep',
  'hmm',
  'hm',
  'mm',
  'oh',
]);

const LEADING_ACK = /^(?:ok(?:ay)?|k|alright|so|hmm+|yeah|yep)\b[,.!\s]+(?=\S)/;
const NO_PROBLEM_PHRASE =
  /^(?:\W|and|but|so)*no (worries|problem|probs?|issues?|notes|complaints?|failures|errors|crashes|bugs|warnings|regressions)\b(?! with)/;

const wordCache = new Map<string, number>();
/** wink's sentiment of one word on its own (cached): tells "not bad" from "not good". */
function wordSentiment(word: string): number {
  let s = wordCache.get(word);
  if (s === undefined) {
    s = DOMAIN_NEGATIVE.has(word) ? -0.5 : DOMAIN_POSITIVE.has(word) ? 0.5 : analyse(word).sentiment;
    if (wordCache.size < 10_000) wordCache.set(word, s);
  }
  return s;
}

const isWord = (t: Token) => t.type === 'word' || t.type === 'number' || t.type === 'emoji' || t.type === 'emoticon';
const isComparative = (t: Token) =>
  ((t.pos === 'ADJ' || t.pos === 'ADV' || t.pos === 'PROPN') && t.text !== t.lemma && /(er|ier)$/.test(t.text)) ||
  t.text === 'less' ||
  t.text === 'fewer';

const comparativeCache = new Map<string, boolean>();
/** Whether a word is the -er form of an adjective wink knows: shorter, simpler, bigger, friendlier. */
function isComparativeForm(word: string): boolean {
  let yes = comparativeCache.get(word);
  if (yes === undefined) {
    const m = /^([a-z]{2,})(i?)er$/.exec(word);
    const stems = m === null ? [] : [m[1] + (m[2] === 'i' ? 'y' : ''), `${m[1]}e`, m[1].replace(/(.)\1$/, '$1')];
    yes = stems.some((s) => analyse(s).tokens[0]?.pos === 'ADJ');
    if (comparativeCache.size < 10_000) comparativeCache.set(word, yes);
  }
  return yes;
}

/** Reads one English clause (a comma/"but"-separated part of a sentence). */
export function readEnglishClause(text: string): ClauseReading {
  const a = analyse(withApostrophes(text).replace(/\b(no|nope|nah)\.(?=\s|$)/gi, '$1 .'));
  const words = a.tokens.filter(isWord);
  const lower = withApostrophes(text.toLowerCase().trim());
  const head = stripFillers(words);
  // A question ends with "?", or starts with a wh-word and has no full stop ("btw what's the …").
  const question = /\?\s*$/.test(lower) || (head.rest.length > 0 && QUESTION_WORDS.has(head.rest[0].text) && !/[.!]\s*$/.test(lower));
  const rhetorical = /(\?\?|\?!|!\?)/.test(lower) || /^(why|how come)\b.*\byou\b/.test(lower);

  // Polarity: wink's sentiment plus the domain words, negation flipping them. A leading "ok"
  // ("ok my PC won't boot now") acknowledges; wink's praise for it would hide the complaint.
  const afterAck = lower.replace(LEADING_ACK, '');
  let polarity = afterAck !== lower && afterAck !== '' ? analyse(afterAck).sentiment : a.sentiment;
  if (NO_PROBLEM_PHRASE.test(lower)) polarity = Math.max(polarity, 0.5);
  for (const t of words) {
    const d =
      DOMAIN_POSITIVE.has(t.lemma) || DOMAIN_POSITIVE.has(t.text)
        ? 0.5
        : DOMAIN_NEGATIVE.has(t.lemma) || DOMAIN_NEGATIVE.has(t.text)
          ? -0.5
          : 0;
    polarity += t.negated ? -d : d;
  }

  if (DOMAIN_PHRASES_POSITIVE.test(lower)) polarity = Math.max(polarity, 0) + 0.6;
  if (DOMAIN_PHRASES_NEGATIVE.test(lower)) polarity = Math.min(polarity, 0) - 0.6;
  if (words.length > 0 && words.every((t) => ACKS.has(t.text))) polarity = 0;
  // A bare request for another try says "not good" but not what to change: a complaint, no hint.
  if (head.rest.length > 0 && head.rest.every((t) => RETRY_WORDS.has(t.text)) && RETRY_CORE.test(lower)) {
    return { text, polarity: Math.min(polarity, -0.3), complaint: 'retry', instruction: null, newTask: false, question: false };
  }
  const complaint = findComplaint(words, lower, polarity, question, rhetorical);
  const { instruction, newTask } = findInstruction(head.rest, lower, head.openers);
  // An instruction's own words ("keep the tone warm", "don't …") say what is wanted, not how the
  // user feels, so its sentiment does not count.
  // A new task's words ("explain how X works") describe the task, not the answer before it.
  return {
    text,
    polarity: instruction !== null || newTask ? 0 : polarity,
    complaint,
    instruction,
    newTask,
    question: question && !rhetorical,
  };
}

// Chat drops the apostrophe and misspells ("dont", "doesnt", "dosnt"); wink reads negation only with it.
const BARE_NEGATION = /\b(do|does|did|is|was|are|were|has|have|had|could|would|should)n'?t\b|\bdo?s+e?nt\b|\b(ca|wo)n'?t\b|\bdidnt\b/gi;

/** "doesnt work" → "doesn't work", "dosnt" → "doesn't", "cant" → "can't": the forms wink negates. */
function withApostrophes(text: string): string {
  return text.replace(BARE_NEGATION, (m, aux?: string, modal?: string) => {
    if (aux !== undefined) return `${aux}n't`;
    if (modal !== undefined) return `${modal}n't`;
    return /^did/i.test(m) ? "didn't" : "doesn't";
  });
}

function stripFillers(words: Token[]): { rest: Token[]; openers: Set<string> } {
  const openers = new Set<string>();
  let i = 0;
  // "can you …" and "could you please …" are requests: read what follows as an imperative.
  if (words.length > 2 && ['can', 'could', 'would', 'will'].includes(words[0].text) && words[1].text === 'you') i = 2;
  for (; i < words.length && (FILLERS.has(words[i].text) || words[i].type === 'emoji'); i++) {
    if (TASK_OPENERS.has(words[i].text)) openers.add(words[i].text);
  }
  return { rest: words.slice(i), openers };
}

function findComplaint(words: Token[], lower: string, polarity: number, question: boolean, rhetorical: boolean): string | null {
  if (words.length > 0 && words.every((t) => ['no', 'nope', 'nah', 'lol', 'nop'].includes(t.text))) return 'rejection';
  if (rhetorical && polarity <= 0.2) return 'rhetorical question';
  for (let i = 0; i + 1 < words.length; i++) {
    const [t, next] = [words[i], words[i + 1]];
    if (t.text === 'too' && !t.negated && ['ADJ', 'ADV', 'NOUN', 'VERB'].includes(next.pos) && next.text !== 'much')
      return `too ${next.text}`;
  }
  // "still broken" complains; "I still don't get why" (after "Works.") is about the user, not the answer.
  if (
    !question &&
    polarity <= 0.3 &&
    words.some((t) => t.text === 'still') &&
    !/\bi still (don'?t|do not) (understand|get|know|see)\b/.test(lower)
  )
    return 'still';
  // "reads like a manual", "sounds like my grandpa": a comparison that is not praise describes a flaw.
  // Praise needs a good adjective ("looks like a great plan"); the verb and the noun do not count
  // (wink scores "sound" and "textbook" as positive).
  const like = /\b(read|sound|look|feel|seem)s? like (a|an|some|my|the|robot|robots)\b/.exec(lower);
  if (
    !question &&
    like !== null &&
    !analyse(lower.slice(like.index + like[0].length)).tokens.some((t) => t.pos === 'ADJ' && wordSentiment(t.text) >= 0.3)
  )
    return 'comparison';
  // "you did it again", "same thing again": a repeated failure (an imperative with "again" is read as an instruction instead).
  if (!question && polarity <= 0.2 && words.at(-1)?.text === 'again' && ['you', 'same', 'it', 'that', 'this'].includes(words[0].text))
    return 'again';
  if (!question && /\b(the opposite of|nothing (happened|changed|works)|went from green to red|off by)\b/.test(lower))
    return 'broken outcome';
  // "you forgot the WHERE clause", "you've got them swapped", "but I asked for the formal one",
  // "you gave 31.4", "longer than the original", "a summary of a different document".
  if (!question && WRONG_ANSWER.test(lower)) return 'wrong answer';
  // A negated verb, adjective or "what"/"it" that is not the negation of a bad word: "not what I
  // wanted", "doesn't add up", "I didn't ask for …". "not bad" is read by its polarity instead.
  const negated = words.filter((t) => t.negated && ['VERB', 'ADJ', 'ADV', 'PRON', 'NOUN', 'AUX', 'PROPN'].includes(t.pos));
  if (negated.some((t) => CALM_NEGATIONS.has(t.lemma))) return null;
  if (negated.length > 0 && !negated.some((t) => wordSentiment(t.text) < 0 || wordSentiment(t.lemma) < 0) && polarity <= 0.2 && !question) {
    return `negated "${negated[0].text}"`;
  }
  return null;
}

function findInstruction(rest: Token[], lower: string, openers: Set<string>): { instruction: string | null; newTask: boolean } {
  const none = { instruction: null, newTask: false };
  if (rest.length === 0) return none;
  const [head, second] = rest;
  // "now can you make it also lowercase the extensions?", "could you turn it into an alias too?":
  // more work on top of an answer that stands, not a change to it.
  if (
    (openers.has('now') || openers.has('next') || /\b(too|as well)\W*$/.test(lower)) &&
    /\b(can|could|would|will) you\b|^\W*(?:please )?(?:make|add|turn|write|do)\b/.test(lower) &&
    !/\b(instead|rather|only|not|no|shorter|longer|less|fewer|again)\b/.test(lower)
  )
    return { instruction: null, newTask: true };
  // "never use X" instructs; "never knew that" (a past tense) tells.
  const told =
    head.text === 'never' &&
    second !== undefined &&
    second.pos === 'VERB' &&
    /[^n]ed$|^(knew|saw|thought|heard|had|got|made|took|found)$/.test(second.text);
  if ((head.text === 'do' && (second?.text === "n't" || second?.text === 'not')) || (NEGATIVE_IMPERATIVES.has(head.text) && !told))
    return { instruction: 'negative imperative', newTask: false };
  if (LIMIT.test(lower)) return { instruction: 'limit', newTask: false };
  // "…, pls fix", "please fix that": a bare request to fix what the clause before described.
  if (/^\W*(?:pls|please|plz|can you|could you)\s+fix(?:\s+(?:it|this|that|them|pls|please))?\W*$/.test(lower))
    return { instruction: 'request', newTask: false };
  if (FUTURE.test(lower)) return { instruction: 'from now on', newTask: false };
  // "Image is 180MB instead of 1.2GB" reports a result; "use tabs instead of spaces" asks for a change.
  if (/\b(instead( of)?|rather than)\b/.test(lower) && !/\d\S*\s+instead of\s+(?:~|about |around )?\d/.test(lower))
    return { instruction: 'instead', newTask: false };
  if (
    // "you should …" instructs; "should I …?" / "what should we …" asks for advice.
    rest.some(
      (t, i) => ['should', 'must', 'ought'].includes(t.text) && rest[i - 1]?.text !== 'i' && !ASKERS.has(rest[i + 1]?.text ?? ''),
    ) ||
    /\b(you|it|this|that) (need|needs|have|has) to\b|^\W*(needs|has) to (be|use|run|go|work|stay|have)\b|^\W*needs (a|an|the|more|some|its|to)\b/.test(
      lower,
    )
  ) {
    return { instruction: 'should', newTask: false };
  }
  if (WANT.test(lower.replace(/^(\W|please|just|and|but)+/, ''))) return { instruction: 'wish', newTask: false };
  if (
    (head.text === 'no' || head.text === 'without') &&
    second !== undefined &&
    !NO_PROBLEM.has(second.text) &&
    ['NOUN', 'ADJ', 'PROPN', 'NUM', 'VERB'].includes(second.pos)
  )
    return { instruction: 'no X', newTask: false };
  if (
    head.text === 'only' ||
    rest[rest.length - 1].text === 'only' ||
    (/^(just|only)\b/.test(lower) && !rest.some((t) => t.pos === 'VERB' || t.pos === 'AUX'))
  )
    return { instruction: 'only X', newTask: false };
  if (/^(nothing|no) (else|more)\b/.test(lower.replace(/^(\W|and|but)+/, ''))) return { instruction: 'only X', newTask: false };
  // "shorter please", "less fluff", "more code": wink tags a lone comparative as a proper noun.
  const bareComparative = ['ADJ', 'ADV', 'PROPN'].includes(head.pos) && rest.length <= 3 && isComparativeForm(head.text);
  if (isComparative(head) || bareComparative || ((head.text === 'more' || head.text === 'less') && second !== undefined))
    return { instruction: 'comparative', newTask: false };
  // A verbless fragment with "please": "all lowercase please", "the short version pls".
  if (
    /\b(please|pls|plz)\b/.test(lower) &&
    !/^\W*(yes|yeah|yep|sure|ok(ay)?)\W+(please|pls|plz)\W*$/.test(lower) &&
    !rest.some((t) => t.pos === 'VERB' || t.pos === 'AUX')
  )
    return { instruction: 'request', newTask: false };
  return readImperative(rest, openers);
}

/** An imperative clause: a correction when it amends the answer, else a new task (neutral). */
function readImperative(rest: Token[], openers: Set<string>): { instruction: string | null; newTask: boolean } {
  const [verb, next] = rest;
  // wink often tags a clause-initial imperative as a noun ("use", "sort"): accept that only for verbs it lists.
  const known = CHANGE_VERBS.has(verb.lemma) || TASK_VERBS.has(verb.lemma);
  const baseForm =
    verb.type === 'word' &&
    verb.text === verb.lemma &&
    (verb.pos === 'VERB' || (known && ['NOUN', 'PROPN', 'AUX', 'ADJ'].includes(verb.pos)));
  if (!baseForm || next === undefined || !['DET', 'PRON', 'NOUN', 'ADJ', 'PROPN', 'ADP', 'NUM', 'ADV', 'PART', 'VERB'].includes(next.pos))
    return { instruction: null, newTask: false };
  if (verb.text === 'let' || verb.text === 'thank' || verb.text === 'appreciate') return { instruction: null, newTask: false };
  const marker = rest.some(
    (t) =>
      isComparative(t) || ['instead', 'only', 'without', 'again', 'first', 'last'].includes(t.text) || (t.text === 'not' && !t.negated),
  );
  const object = rest.slice(1).find((t) => !['me', 'us'].includes(t.text));
  const refersToAnswer = object !== undefined && (ANSWER_REFERENCES.has(object.text) || object.pos === 'ADP' || object.pos === 'ADJ');
  const opensTask = openers.size > 0;
  if (marker) return { instruction: 'imperative', newTask: false };
  if (opensTask) return { instruction: null, newTask: true };
  if (CHANGE_VERBS.has(verb.lemma)) return { instruction: 'imperative', newTask: false };
  if (TASK_VERBS.has(verb.lemma)) {
    // "write it …", "write in …", "give me the …", "give me prose": about this answer; "write a haiku": a new one.
    const amends =
      (verb.lemma === 'write' || verb.lemma === 'give') &&
      object !== undefined &&
      (ANSWER_REFERENCES.has(object.text) || object.pos === 'ADP' || (object.pos === 'NOUN' && object.text !== 'me'));
    return amends ? { instruction: 'imperative', newTask: false } : { instruction: null, newTask: true };
  }
  return refersToAnswer && verb.pos === 'VERB'
    ? { instruction: 'imperative', newTask: false }
    : { instruction: null, newTask: verb.pos === 'VERB' };
}
