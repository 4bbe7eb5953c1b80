// The offline judge's hint-span selector: on a failed turn (and on praise with a wish for later)
// the hint is the part of the next state that says what the answer should have been or how to
// fix it. The rules find it in the phrasings their authors saw (english.ts instruction clauses,
// corrections.ts, languages.ts, the tool parsers' stated fixes); this ranks every span of the
// next state instead. Candidates: for a user's reply, each sentence, each run of clauses within
// a sentence (cut at commas, "but", dashes, CJK punctuation, 但是, けど, pero, aber, mais …) and
// from each cue word on, two sentences together, the whole reply; for a tool output, each line
// (also without its `help:`/`HINT:`/`E` prefix), each run of its clauses, the text after "did you
// mean", a validation error's field with its message, git's wrapped `hint:` advice. The rules'
// own hint is always a candidate. Each candidate gets sparse binary features (kind, language,
// position, length, leading words and characters, cue classes, whether it is the rules' hint)
// and a logistic-regression probability (hint-model.json, trained by scripts/train-judge.ts with
// the reply classifier's trainer). The best candidate is the hint when its probability reaches
// the model's threshold (chosen by leaving author groups out; a higher one where the rules found
// no hint at all); otherwise the rules' hint stays. Thresholds above 1 mean the chooser found the
// rules' hints better (the committed model since round 4, docs/judge.md): no ranking is done.
// Pure functions, but for loadHintModel (reads the committed JSON once).

import { join } from 'node:path';
import { isBareRedo } from './corrections.ts';
import { committedModel } from './committed-model.ts';
import { softmax } from './reply-model.ts';

/** The committed ranker: two-class softmax weights (not a hint, a hint) and its decision thresholds. */
export interface HintModel {
  version: 1;
  /** The best candidate replaces the rules' hint when its probability is at least this. */
  replaceAt: number;
  /** Where the rules found no hint, the best candidate becomes one when its probability is at least this. */
  addAt: number;
  bias: number[];
  weights: Record<string, number[]>;
}

/** What the selector knows about the turn. */
export interface HintContext {
  role: 'user' | 'tool';
  /** The reply's language (`en`, `zh`, …); `tool` for tool outputs. */
  lang: string;
  /** The judge's verdict (a hint is looked for on −1, and on +1 with a wish for later). */
  score: 1 | 0 | -1;
  /** The rules' hint (instruction merged with the stated correction; the tool's stated fix), or null. */
  rulesHint: string | null;
  /** The stated correction (corrections.ts), or null. */
  correction?: string | null;
}

/** A span of the next state and where it came from (`sent`, `clause`, `cue`, `line`, `rules` …). */
export interface HintCandidate {
  text: string;
  tags: string[];
}

// Where a clause ends inside a sentence: commas, colons, semicolons, dashes, CJK punctuation, and
// before the contrast words of the six languages (after けど / が、 in Japanese).
const CLAUSE_CUT =
  /[,，、:：;；]\s*|\s+[-–—]+\s+|\s+(?=(?:but|though|although|however|so|and then|pero|aunque|sino|aber|sondern|doch|mais|sauf que|par contre)\b)|(?=(?:但是|不过|可是|而是|只是|就是|ただ|でも))|(?<=(?:けど|けれど|けれども|が、|のに))/giu;
// Japanese: also before a sentence-final particle (…はず|ですが, …ない|よ); tested only on kana.
const JA_END = /(?=(?:ですよね|ですが|ですけど|ですね|でしょ|だよね|だよ|ダメじゃん|じゃん|よね|よ|ね)[。！？!?…]*$)/gu;
const KANA = /[\u3040-\u30ff]/;
// Inside a tool's line: punctuation, sentence ends and column gaps ("E722 Do not use bare `except`").
const TOOL_CUT = /[,;:]\s+|\s+[-–—]+\s+|(?<=[.!?])\s+|\s{2,}|\s+(?=(?:but|or|and then)\b)/giu;
// Words from which a hint often starts inside a clause: requests, modals, stated corrections.
const CUE_START =
  /\b(?:please|pls|just|only|make|use|should|must|needs? to|need|have to|i (?:asked|said|wanted|meant|need|want|prefer|'d like)|i'd like|you (?:forgot|missed|left|wrote|mean|never|should)|it(?:'s| is| should)|instead|next time|from now on|going forward|can you|could you|por favor|tienes que|hay que|debería|te pedí|quería|dije|bitte|du musst|sollte|ich wollte|ich meinte|il faut|tu dois|je voulais|j'ai dit|peux-tu|tu peux|pourrais-tu|did you mean|perhaps|try|run|consider|expected|want|retry|remove|add|include|grant)\b|(?:请|应该|要|改成|改为|用|把|以后|下次|别|不要|最好|今後|次から|もっと|して(?:ください|ほしい))/giu;
// Cue classes, as features (what kind of words a candidate carries).
const CUE_CLASSES: Array<[string, RegExp]> = [
  ['polite', /\b(?:please|pls|por favor|bitte|s'il te pla[iî]t|svp|porfa)\b|请|ください|お願い/iu],
  ['modal', /\b(?:should|must|need|have to|debería|tienes que|hay que|sollte|musst|muss|il faut|tu dois|devrait)\b|应该|需要|べき|必要/iu],
  ['contrast', /\b(?:instead|rather than|not|no|nicht|statt|pas|au lieu|en vez|en lugar)\b|不是|而不是|じゃなく|ではなく/iu],
  [
    'future',
    /\b(?:next time|from now on|going forward|in (?:the )?future|la próxima|à l'avenir|künftig|in zukunft|nächstes mal)\b|以后|下次|今後|次から|これから/iu,
  ],
  [
    'asked',
    /\b(?:i (?:asked|said|wanted|meant|need)|te pedí|quería|dije|ich wollte|ich meinte|je voulais|j'ai dit|j'avais demandé)\b|我要的是|我说的是|と言った|頼んだ/iu,
  ],
  ['forgot', /\b(?:forgot|missed|left out|missing|olvidaste|vergessen|oublié|fehlt)\b|忘了|漏了|抜けて|忘れ/iu],
  [
    'request',
    /\b(?:can you|could you|would you|puedes|podrías|kannst du|könntest du|peux-tu|pourrais-tu|tu peux)\b|能不能|可以|もらえ|いただけ/iu,
  ],
  [
    'complaint',
    /\b(?:wrong|too|broken|error|still|doesn'?t|didn'?t|isn'?t|falsch|mal|faux|trop|demasiado|zu)\b|太|不对|错|違|すぎ|エラー/iu,
  ],
  ['praise', /\b(?:thanks?|great|perfect|nice|good|love|gracias|danke|merci|super|genial|parfait)\b|谢谢|很好|不错|ありがと|いい/iu],
  ['fixword', /\b(?:did you mean|perhaps|consider|try|retry|use|run|install|expected|want|should be|required|must be|help|hint)\b/i],
  ['digit', /\d/],
  ['quote', /["'`«»“”‘’「」]/],
  ['code', /[`(){}[\]=<>]|::|\w\.\w/],
  ['question', /[?？]\s*$/],
];

/** Lines of a tool output that may start with a label worth dropping (`help:`, `HINT:`, `E`, `npm ERR!`). */
const TOOL_PREFIX =
  /^\s*(?:[=|>]\s*)*(?:npm (?:ERR!|error|warn)|(?:help|hint|note|HINT|NOTE|Hint|Note|warning|error|ERROR|Error|fatal|E|FAIL|FAILED|\[ERROR\]|\[WARN(?:ING)?\]|\[INFO\]|DETAIL|Try)\b:?)\s*/;

const MAX_CANDIDATES = 100;
const NEGATED = /(?:\b(?:don'?t|do not|never|not|no|nicht|kein|pas|ne|nunca)\s+|(?:不要?|别|没有?|勿|不用))$/iu;
const JOINER =
  /^(?:(?:but|and|so|though|although|however|also|pero|y|aber|und|mais|et|donc|sondern)\b[\s,]*|(?:不过|但是|可是|就是|ただ|でも)[，、\s]*)/iu;

/** Words for counting and matching: Latin words and numbers, single CJK characters and kana. */
function words(text: string): string[] {
  // A CJK character is a word of its own, also right after a digit ("7日より" is 7, 日, よ, り).
  // Quotes around a word are not part of it: 'email' is email ("it's" keeps its apostrophe).
  const found = text.toLowerCase().match(/[\u3040-\u30ff\u3400-\u9fff]|(?:(?![\u3040-\u30ff\u3400-\u9fff])[\p{L}\p{N}_'/-])+/gu) ?? [];
  return found.map((w) => w.replace(/^'+|'+$/g, '')).filter((w) => w !== '');
}

/** Sentences of a reply with their offsets: end marks and line breaks end one; "8.05" and "a.b" do not. */
function sentenceSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const re = /(?:[^\n.!?;。！？；…]|[.!?;](?![\s.!?;]|$))+(?:[.!?;]+|[。！？；…]+)?/gu;
  for (const m of text.matchAll(re)) {
    const lead = m[0].length - m[0].trimStart().length;
    if (/[\p{L}\p{N}]/u.test(m[0])) spans.push([m.index + lead, m.index + m[0].length]);
  }
  return spans;
}

/** Cut points of a stretch of text: clause ends and cue-word starts (offsets into `text`). */
function cutPoints(text: string, from: number, to: number, cut = CLAUSE_CUT): { starts: number[]; ends: number[] } {
  const part = text.slice(from, to);
  const ends = new Set<number>([to]);
  const starts = new Set<number>([from]);
  for (const m of part.matchAll(cut)) {
    if (m.index === 0) continue;
    ends.add(from + m.index);
    starts.add(from + m.index + m[0].length);
  }
  if (cut === CLAUSE_CUT && KANA.test(part)) for (const m of part.matchAll(JA_END)) if (m.index > 0) ends.add(from + m.index);
  // A cue right after a negation ("不要|用…", "don't |use …") would cut the negation off and flip the request.
  for (const m of part.matchAll(CUE_START)) if (!NEGATED.test(part.slice(Math.max(0, m.index - 8), m.index))) starts.add(from + m.index);
  // "…, but make it shorter": a clause may also start after its joining word.
  for (const at of [...starts]) {
    const joiner = JOINER.exec(text.slice(at, to));
    if (joiner !== null) starts.add(at + joiner[0].length);
  }
  return { starts: [...starts].sort((a, b) => a - b), ends: [...ends].sort((a, b) => a - b) };
}

/** Adds a candidate unless its words are already there (first tags win) or it has none. */
function adder(out: HintCandidate[]) {
  const seen = new Map<string, HintCandidate>();
  return (raw: string, tags: string[]) => {
    if (out.length >= MAX_CANDIDATES) return;
    const text = raw.trim().replace(/^(?:[,，、:：;；\s]|[-–—]+\s)+/, '');
    const key = words(text).join(' ');
    if (key === '') return;
    const had = seen.get(key);
    if (had !== undefined) {
      for (const t of tags) if (t.startsWith('src:') && !had.tags.includes(t)) had.tags.push(t);
      return;
    }
    const c = { text, tags };
    seen.set(key, c);
    out.push(c);
  };
}

/** Candidate spans of a user's reply (the rules' hint and the stated correction first). */
export function userCandidates(text: string, rulesHint: string | null, correction: string | null = null): HintCandidate[] {
  const out: HintCandidate[] = [];
  const add = adder(out);
  if (rulesHint !== null) add(rulesHint, ['src:rules']);
  if (correction !== null) add(correction, ['src:correction']);
  const sentences = sentenceSpans(text);
  const n = sentences.length;
  sentences.forEach(([s, e], i) => {
    const pos = n === 1 ? 'only' : i === 0 ? 'first' : i === n - 1 ? 'last' : 'mid';
    add(text.slice(s, e), ['src:sentence', `pos:${pos}`]);
    const { starts, ends } = cutPoints(text, s, e);
    for (const a of starts)
      for (const b of ends) {
        if (b <= a) continue;
        const whole = a === s && b === e;
        if (!whole) add(text.slice(a, b), [a === s ? 'src:head' : b === e ? 'src:tail' : 'src:clause', `pos:${pos}`]);
      }
    if (i + 1 < n) add(text.slice(s, sentences[i + 1][1]), ['src:two', `pos:${pos}`]);
  });
  if (n > 2) add(text, ['src:all']);
  return out;
}

/** Candidate spans of a tool output (the rules' stated fix first). */
export function toolCandidates(text: string, rulesHint: string | null): HintCandidate[] {
  const out: HintCandidate[] = [];
  const add = adder(out);
  if (rulesHint !== null) add(rulesHint, ['src:rules']);
  // A compiler's source excerpt (`12 |     let x = …`, `   ^^^`) and stack frames state no fix,
  // unless they carry a `help:`/`note:` label.
  const lines = text
    .split('\n')
    .filter((l) => /\p{L}{2}/u.test(l) && (!/^\s*(?:\d+\s*)?\||^\s+at |^\s*File "/.test(l) || /\b(?:help|note|hint)\b/.test(l)));
  // Long logs: the fix is near the error, which is near the start or the end.
  const kept = lines.length > 60 ? [...lines.slice(0, 20), ...lines.slice(-40)] : lines;
  const advice = [...text.matchAll(/^hint: ?(.*)$/gim)].map((m) => m[1].trim()).join(' ');
  if (advice !== '') for (const s of advice.split(/(?<=[.!?])\s+/)) add(s, ['src:advice']);
  for (const m of text.matchAll(/\b[Dd]id you mean\b:?\s*([^?\n]+)\??/g)) add(m[1], ['src:mean']);
  for (const m of text.matchAll(/"(?:field|param|loc)"\s*:\s*(?:\[[^\]]*?"(\w+)"\]|"([\w.-]+)")[^{}]*?"(?:message|msg)"\s*:\s*"([^"]+)"/g))
    add(`${m[1] ?? m[2]} ${m[3]}`, ['src:field']);
  for (const m of text.matchAll(/"(?:message|msg|detail|error_description|hint)"\s*:\s*"([^"]{3,})"/g)) add(m[1], ['src:json']);
  kept.forEach((line, i) => {
    const pos = i === 0 ? 'first' : i === kept.length - 1 ? 'last' : 'mid';
    add(line, ['src:line', `pos:${pos}`]);
    const bare = line.replace(TOOL_PREFIX, '');
    const at = line.length - bare.length;
    if (at > 0) add(bare, ['src:bare', `pos:${pos}`, `pre:${line.slice(0, at).trim().toLowerCase().slice(0, 8)}`]);
    const { starts, ends } = cutPoints(line, at, line.length, TOOL_CUT);
    for (const a of starts)
      for (const b of ends) if (b > a && !(a === at && b === line.length)) add(line.slice(a, b), ['src:part', `pos:${pos}`]);
    // A command on its own indented line after "use" / "with:" / "run:".
    if (i + 1 < kept.length && /\b(?:use|run|try|with)\s*:?\s*$/i.test(line)) add(kept[i + 1], ['src:command']);
  });
  return out;
}

/** The sparse binary features of one candidate in its context. */
export function candidateFeatures(c: HintCandidate, ctx: HintContext, total: number): string[] {
  const f = new Set<string>();
  const kind = ctx.role === 'tool' ? 'tool' : ctx.lang;
  f.add(`k:${ctx.role}`);
  f.add(`k:${kind}`);
  f.add(`v:${ctx.score}`);
  for (const t of c.tags) {
    f.add(t);
    f.add(`${ctx.role}|${t}`);
  }
  const w = words(c.text);
  const len = w.length;
  const lb = len <= 2 ? 'xs' : len <= 5 ? 's' : len <= 10 ? 'm' : len <= 20 ? 'l' : 'xl';
  f.add(`len:${lb}`);
  f.add(`${ctx.role}|len:${lb}`);
  const share = total === 0 ? 1 : len / total;
  f.add(`share:${share >= 0.95 ? 'all' : share >= 0.6 ? 'most' : share >= 0.3 ? 'part' : 'small'}`);
  if (ctx.rulesHint !== null) {
    f.add('rules:any');
    if (c.tags.includes('src:rules')) f.add(`rules:is|${kind}`);
    else {
      const rw = rulesWords(ctx.rulesHint);
      const inside = w.filter((x) => rw.has(x)).length / Math.max(1, len);
      f.add(inside >= 0.99 ? 'rules:inside' : inside >= 0.5 ? 'rules:overlap' : 'rules:apart');
    }
  } else f.add('rules:none');
  if (c.tags.includes('src:correction')) f.add(`corr:is|${kind}`);
  for (const [name, re] of CUE_CLASSES) if (re.test(c.text)) f.add(`cue:${name}`);
  for (let i = 0; i < Math.min(3, len); i++) f.add(`w${i}:${w[i]}`);
  if (len >= 2) f.add(`b0:${w[0]} ${w[1]}`);
  if (len > 0) f.add(`wl:${w[len - 1]}`);
  const head = ` ${c.text.toLowerCase().normalize('NFKC').replace(/\s+/g, ' ').trim().slice(0, 8)}`;
  for (let n = 2; n <= 4; n++) for (let i = 0; i + n <= head.length; i++) f.add(`h${n}:${head.slice(i, i + n)}`);
  return [...f];
}

/** The word or mark next to a span (`^`/`$` at the text's edges), lower-case. */
function edgeToken(side: string, before: boolean): string {
  const t = side.trim();
  if (t === '') return before ? '^' : '$';
  const m = before ? /([\p{L}\p{N}']+|[^\s\p{L}\p{N}])\s*$/u.exec(t) : /^\s*([\p{L}\p{N}']+|[^\s\p{L}\p{N}])/u.exec(t);
  const tok = (m?.[1] ?? '').toLowerCase();
  return /[\u3040-\u30ff\u3400-\u9fff]/.test(tok) ? [...tok].slice(before ? -2 : 0, before ? undefined : 2).join('') : tok;
}

// A Map looks a feature up several times faster than a 10,000-key object; built once per model.
const weightMaps = new WeakMap<HintModel, Map<string, number[]>>();
function weightMap(model: HintModel): Map<string, number[]> {
  let m = weightMaps.get(model);
  if (m === undefined) {
    m = new Map(Object.entries(model.weights));
    weightMaps.set(model, m);
  }
  return m;
}

// The rules' hint's words, kept while the same hint is ranked against all candidates.
let lastRules: { hint: string; words: Set<string> } = { hint: '', words: new Set() };
function rulesWords(hint: string): Set<string> {
  if (lastRules.hint !== hint) lastRules = { hint, words: new Set(words(hint)) };
  return lastRules.words;
}

/** The probability that a candidate is the hint. */
export function candidateProb(model: HintModel, features: string[]): number {
  const z = model.bias.slice();
  const weights = weightMap(model);
  for (const name of features) {
    const w = weights.get(name);
    if (w === undefined) continue;
    z[0] += w[0];
    z[1] += w[1];
  }
  return softmax(z)[1];
}

/** Candidates of a next state in their context, each with its features. */
export function rankedCandidates(text: string, ctx: HintContext): Array<{ candidate: HintCandidate; features: string[] }> {
  const cands = ctx.role === 'tool' ? toolCandidates(text, ctx.rulesHint) : userCandidates(text, ctx.rulesHint, ctx.correction ?? null);
  const total = words(text).length;
  return cands.map((candidate) => {
    const features = candidateFeatures(candidate, ctx, total);
    // What stands just before and after the span ("though" + "I'd like …", "…" + "right?").
    const at = text.indexOf(candidate.text);
    if (at < 0) features.push('edge:none');
    else {
      features.push(`prev:${edgeToken(text.slice(Math.max(0, at - 24), at), true)}`);
      features.push(`next:${edgeToken(text.slice(at + candidate.text.length, at + candidate.text.length + 24), false)}`);
    }
    return { candidate, features };
  });
}

/**
 * Words for hint matching: lower-case Latin words and numbers, single CJK characters and kana.
 * The bench's hint match (bench/judge-metrics.ts) is this one.
 */
export function hintWords(text: string): string[] {
  return words(text);
}

/**
 * Whether `got` says what `expected` says: it covers ≥ 75% of the expected words and ≥ 50% of
 * its own words are expected ones.
 */
export function hintMatches(expected: string, got: string): boolean {
  return wordsMatch(words(expected), words(got));
}

function wordsMatch(want: string[], have: string[]): boolean {
  if (want.length === 0 || have.length === 0) return false;
  const wantSet = new Set(want);
  const haveSet = new Set(have);
  const covered = want.filter((w) => haveSet.has(w)).length / want.length;
  const own = have.filter((w) => wantSet.has(w)).length / have.length;
  return covered >= 0.75 && own >= 0.5;
}

/** How much surer the ranker must be to replace the rules' hint, or a span its most probable one (near ties keep them). */
const MARGIN = 0.05;
/** How many of the most probable candidates vote on the span. */
const VOTERS = 6;
/** A span of several sentences is a hint only if each of its sentences is at least this probable alone. */
const SENTENCE_FLOOR = 0.1;

/**
 * The span to give and how sure the ranker is that the next state has one (the highest candidate
 * probability), or null when there is no candidate. The span is the one of the most probable
 * candidates that would match the most of their probability mass if one of them were the hint:
 * overlapping spans (a clause, its sentence, the rules' hint) support each other, and a span
 * that matches both a short and a long reading wins over either. A near tie keeps the rules' hint.
 */
export function bestCandidate(model: HintModel, text: string, ctx: HintContext): { text: string; prob: number } | null {
  const all: Array<{ text: string; p: number; rules: boolean; several: boolean }> = [];
  const sentences: Array<{ text: string; p: number }> = [];
  for (const { candidate, features } of rankedCandidates(text, ctx)) {
    const p = candidateProb(model, features);
    const tags = candidate.tags;
    const rules = tags[0] === 'src:rules';
    all.push({ text: candidate.text, p, rules, several: tags.includes('src:two') || tags.includes('src:all') });
    // A bare "Please redo it." names nothing to change: as low as the ranker's least likely sentence.
    if (tags.includes('src:sentence')) sentences.push({ text: candidate.text, p: isBareRedo(candidate.text) ? 0 : p });
  }
  // The rules picked whole sentences of a reply of several: the ranker may add to them, and trim
  // inside a single one ("Bitte künftig immer duzen, das Sie ist mir zu steif." → "Bitte künftig
  // immer duzen"), but not pick another sentence ("The capitals feel like shouting." must not
  // replace "Please write everything in lowercase.") or drop one of several picked.
  const key = (t: string) => words(t).join(' ');
  const rulesKey = ctx.rulesHint === null ? '' : key(ctx.rulesHint);
  const picked = sentences.filter((x) => rulesKey.includes(key(x.text)));
  const keepRules = sentences.length >= 2 && picked.length > 0 && picked.map((x) => key(x.text)).join(' ') === rulesKey;
  const allowed = (c: { text: string }) => key(c.text).includes(rulesKey) || (picked.length === 1 && rulesKey.includes(key(c.text)));
  const scored = all.filter(
    (c) =>
      // "Give it another go. Please write …": a sentence the ranker itself finds no hint in is not part of one.
      (!c.several || sentences.every((s) => !c.text.includes(s.text) || s.p >= SENTENCE_FLOOR)) && (!keepRules || allowed(c)),
  );
  if (scored.length === 0) return null;
  scored.sort((x, y) => y.p - x.p);
  const sure = scored[0].p;
  const rules = scored.find((c) => c.rules);
  if (ctx.rulesHint !== null && rules !== undefined && sure - rules.p < MARGIN) return { text: ctx.rulesHint, prob: rules.p };
  const top = scored.slice(0, VOTERS).map((c) => ({ ...c, words: words(c.text) }));
  const supportOf = (c: (typeof top)[number]) => top.reduce((sum, o) => sum + (wordsMatch(o.words, c.words) ? o.p : 0), 0);
  // Another span replaces the most probable one only when clearly better supported.
  let pick = top[0];
  let support = supportOf(top[0]) + MARGIN;
  for (const c of top.slice(1)) {
    const s = supportOf(c);
    if (s > support) {
      support = s;
      pick = c;
    }
  }
  return { text: pick.text, prob: sure };
}

/** Whether a ranker is there and on: thresholds above 1 mean the chooser found the rules' hints better. */
export function hintRankerOn(model: HintModel | null): model is HintModel {
  return model !== null && (model.replaceAt <= 1 || model.addAt <= 1);
}

/**
 * The hint for a next state: the most probable candidate when it reaches the model's threshold
 * (one to replace the rules' hint, a higher one to give a hint where the rules found none), else
 * the rules' hint. Never on a 0 verdict.
 */
export function selectHintSpan(model: HintModel | null, text: string, ctx: HintContext): { hint: string | null; prob: number | null } {
  if (ctx.score === 0) return { hint: null, prob: null };
  const best = hintRankerOn(model) ? bestCandidate(model, text, ctx) : null;
  if (best === null || model === null) return { hint: ctx.rulesHint, prob: null };
  const at = ctx.rulesHint === null ? model.addAt : model.replaceAt;
  return { hint: best.prob >= at ? best.text : ctx.rulesHint, prob: best.prob };
}

/** The committed ranker (hint-model.json, written by scripts/train-judge.ts), loaded once; null if absent. */
export const loadHintModel = committedModel<HintModel>(join(import.meta.dirname, 'hint-model.json'));
