// How sure the offline judge is of a verdict, and why not. A sign flip (a failure read as +1, a
// success as −1) pushes the policy toward the failure; a 0 only wastes the turn. So a verdict the
// evidence argues with carries a low confidence, and `judge.min_confidence` turns it into 0:
//   praise next to a contrast or a correction ("love it! wait, wrong day"), sarcasm markers (🙄,
//   "yeah right", "thanks a lot…"), a question that names a defect, a reaction whose meaning is
//   unclear (😂, 😅), the reply classifier reading the other sign, and a page no parser
//   recognised, read as a success by default.
// In: the text and the rules' reading. Out: a confidence in [0, 1] and the doubts that lowered it.

import type { FeedbackReading } from './types.ts';

/** A verdict's confidence and the doubts behind it (empty when nothing argues with it). */
export interface Confidence {
  value: number;
  doubts: string[];
}

/** How much each doubt leaves of the confidence (the lowest one counts). */
const DOUBT: Record<string, number> = {
  'sarcasm marker': 0.3,
  'applause beside a report': 0.35,
  'angry face': 0.3,
  'contrast after praise': 0.35,
  'defect question': 0.35,
  'unclear reaction': 0.3,
  'classifier reads the other sign': 0.4,
  'page read by keywords': 0.45,
  'consent banner only': 0.45,
};

// Eye-rolls, facepalms and the written forms of sarcasm, in the languages the judge reads.
const SARCASM_MARKER =
  /🙄|🙃|😒|😑|🤦|🤡|😇|😅|[\u4e00-\u9fff][^\n]*🙂|잘한다\s?진짜|잘하네\s?진짜|\bgeniale\b\s*[.!]*$|\/s\b|\byeah,? right\b|\bsure,? sure\b|\bthanks a lot\b[^.!?]*(\.\.\.|…)|\bwhat a (surprise|shock)\b|\b(great|perfect|wonderful|brilliant|amazing|fantastic|nice),? (just )?(great|what i needed)\b|спасибо,? конечно|ну (спасибо|супер|отлично|класс)|ага,? (конечно|щас)|\b(bravo|complimenti),? (proprio|davvero)\b|\bmuito obrigad[oa],? hein\b|\bvaleu,? hein\b|\bmerci hein\b|\bna (toll|super|klasse)\b|\bah ouais,? (génial|super)\b|\bsí,? claro\b|\bwah,? (kya|bahut)\b|\bçok sağ ol(un)?,? (ya|gerçekten)\b|بجد شكرا|참\s?잘(했|하)네|잘\s?하는\s?짓|さすがです(ね)?(…|\.\.\.)|真(是)?厉害(啊|呢)?(…|\.\.\.)/iu;

// A turn after praise: "but", "wait", "only", "however", "except", in every language read.
const CONTRAST =
  /(?:^|[\s,.!?;:…。！？、，])(?:(?:but|wait|however|though|except|only thing|pero|espera|sin embargo|aber|warte|allerdings|mais|attends|sauf|ma|però|aspetta|mas|porém|porem|só que|so que|но|только|подожди|стоп|погоди|ama|fakat|yalnız|bekle|lekin|par|ruko|magar|لكن|بس|لحظة|استنى)(?=$|[\s,.!?;:…。！？、，])|근데|그런데|하지만|잠깐|でも|けど|ただ|待って|但是|不过|可是|等等|等一下)/iu;

// A question about a defect in any language: a question mark with a defect word in the same sentence.
const DEFECT_WORDS =
  /\b(wrong|not|didn'?t|isn'?t|wasn'?t|still|why|instead|missing|only|error|never|no)\b|\b(why|porque|por qué|pourquoi|warum|wieso|perché|perche|почему|зачем|neden|niye|kyu|kyun|kyon)\b|لماذا|ليش|왜|なんで|なぜ|どうして|为什么|为啥|怎么/iu;

// Reactions alone: clear ones are read by the rules; these could mean either.
const UNCLEAR_REACTION = /^\s*(reacted\s+)?(😂|🤣|😭|😅|😬|🫠|😳|🤔|😐|😶|🙂|😮|😯|😲|🥲|💀)+\s*(to\b.*)?$/iu;

/** The confidence of a user-reply verdict; `modelSign`: the reply classifier's sure sign, or null. */
export function replyConfidence(text: string, reading: FeedbackReading, modelSign: 1 | 0 | -1 | null): Confidence {
  const doubts: string[] = [];
  if (reading.score === 0) return { value: 1, doubts };
  const t = text.trim();
  if (UNCLEAR_REACTION.test(t)) doubts.push('unclear reaction');
  if (reading.score === 1) {
    if (SARCASM_MARKER.test(t)) doubts.push('sarcasm marker');
    if (/😤|😡|🤬|👎|😠/u.test(t)) doubts.push('angry face');
    // Applause after a sentence of what was done: as often sarcasm ("booked for last Saturday 👏👏") as not.
    if (/👏/u.test(t) && (t.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 6) doubts.push('applause beside a report');
    // A +1 with a hint holds a wish for later ("great, but next time ..."): its contrast is expected.
    if (reading.hint === null && contrastAfterPraise(t)) doubts.push('contrast after praise');
    if (/[?？]/.test(t) && t.split(/(?<=[.!。！\n])/).some((s) => /[?？]/.test(s) && DEFECT_WORDS.test(s))) doubts.push('defect question');
  }
  if (modelSign !== null && modelSign === -reading.score) doubts.push('classifier reads the other sign');
  return of(doubts);
}

/**
 * The confidence of a tool-output verdict: a success read only because no parser knew the output
 * is in doubt when the output is a page (HTML, or short lines of words in a script or language
 * no program prints: buttons, titles, notices) rather than a program's output.
 */
export function toolConfidence(text: string, cues: readonly string[], score: 1 | 0 | -1): Confidence {
  const doubts: string[] = [];
  if (score === 1 && cues.length === 1 && cues[0] === 'tool_ok' && looksLikePage(text)) doubts.push('page read by keywords');
  // A consent banner alone: writers split between "blocked" and "nothing happened yet".
  if (score === -1 && cues.length === 1 && cues[0] === 'page:cookie wall') doubts.push('consent banner only');
  return of(doubts);
}

/** HTML, or mostly short lines of words (no paths, assignments or code), some of them in letters beyond ASCII. */
function looksLikePage(text: string): boolean {
  if (/<(html|body|div|title|h1|p)\b/i.test(text)) return true;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.some((l) => /^\s*\$ |[/\\=<>{}]|\b\w+\.\w{2,4}\b/.test(l))) return false;
  const wordy = lines.filter((l) => /^[\p{L}\p{N}\p{P}\p{Zs}€$£¥₹·]+$/u.test(l.trim()));
  if (wordy.length < lines.length || lines.length < 2) return false;
  // In letters beyond ASCII, or written as sentences to a person ("Sorry, we can only …", "please call …").
  return /[^\p{ASCII}]/u.test(text) || /\b(?:you|your|we|our|please|sorry)\b/i.test(text);
}

function of(doubts: string[]): Confidence {
  return { value: Math.min(1, ...doubts.map((d) => DOUBT[d] ?? 0.5)), doubts };
}

/** Praise, then a contrast word with something after it ("thanks! wait, it's the 14th"). */
function contrastAfterPraise(text: string): boolean {
  const m = CONTRAST.exec(text);
  if (m === null) return false;
  const after = text.slice(m.index + m[0].length);
  return /[\p{L}\p{N}]{2}/u.test(after) && m.index + m[0].length < text.length - 2;
}
