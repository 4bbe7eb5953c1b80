// How much of a reply the hint quotes. The rules find the sentence or clause that says what to
// change; a reader quoting the fix takes less: not the lead-in that says when ("for next time",
// "Für die Zukunft", "Para la próxima"), not the politeness around it ("could you …?", "aber
// bitte …", "…, please"), not the rejected alternative after a comma (", not local time",
// ", pas l'inverse") and not a reason or aside that follows ("…, I just need the command",
// "…, que los reclutadores …", "… would be cool too"). Every cut keeps at least two words, so a
// short hint ("bitte siezen") is never cut down to a fragment. Pure string work, no model.
// Every cut of a reply's hint lives here; the judge calls `quotedHint` once per reply.

import { hintWords as words } from './hint-match.ts';

// The cuts count words as the hint match does (a CJK character is a word).
const MIN_WORDS = 2;

// "for next time:", "For future ones please", "from now on just", "Für die Zukunft bitte",
// "Para la próxima", "Pour les prochaines fois,", "下次写脚本的时候", "今後は".
const WHEN =
  /^(?:(?:btw|oh|and|also|one thing|small (?:thing|request|wish))[,\s]+)*(?:(?:for |in )?(?:the )?(?:(?:next|other|remaining) (?:time|ones?|drafts?|versions?|\w+s)|future(?: \w+s| ones?)?)|going forward|from now on|from here on|für die zukunft|in zukunft|künftig|beim nächsten mal|nächstes mal|(?:para )?la próxima(?: vez)?|para otra vez|a futuro|en el futuro|de ahora en adelante|(?:pour )?(?:les |la )?prochaines?(?: fois)?|à l'avenir|désormais|dorénavant)\s*[,:–—-]?\s*(?:(?:can|could|would) you|please|pls|just|bitte|por favor|¿?podrías|peux-tu|stp)?[,\s]*/iu;
const WHEN_CJK = /^(?:以后|下次|今后)(?:[^，。,]{0,8}的时候)?[，,]?|^(?:次回から|次から|今後は?|これからは)[、,]?/u;

// "could you", "please", "bitte", "por favor", "s'il te plaît", "just".
const ASK_LEAD =
  /^(?:(?:can|could|would|will) you(?: please| pls)?|please|pls|plz|just|kindly|bitte|por favor|porfa|s'il te pla[iî]t|stp|hätte ich gern(?: noch)?|ich hätte gern(?: noch)?)[,\s]+/iu;
// The praise before "but": "Schön und gut, aber bitte …", "nice summary but please …".
// The lead is short (at most four words): a longer one may be the fix itself ("I'd prefer X, but …").
const PRAISE_THEN = /^(?:[^\s,.!?]+\s+){0,3}[^\s,.!?]+(?:[,，]\s*|\s+)(?:but|aber|pero|mais|但是|不过|就是)\s+/iu;
// "説明はいいけど、…", "整体不错，就是…": the praise before the Japanese/Chinese "but".
const PRAISE_THEN_CJK = /^[^、。，,！？]{1,12}(?:けど|けれど|けれども|だけど|ですが)[、,]\s*/u;
// "变量名能不能改成英文": the request, from its verb.
const ASK_CJK = /^[^，。？！]{0,8}?(?:能不能|可不可以|能否|麻烦)(?=[改换用加删去写放])/u;
// "ポート8080が他で使われてるみたいなので、別のポートにしてください": the reason before the request.
const REASON_BEFORE_CJK = /^[^。！？]{2,40}(?:ので|から|因为[^，,]{1,30})[、，,]\s*/u;
// "it's sorting oldest first, I need newest first": the description before what the user needs.
const DESCRIPTION_THEN = /^(?:it|this|that)(?:'s| is| was) [^,]+,\s*(?=i (?:need|want|wanted|asked for|said)\b)/iu;
// "`createdAt` comes back as a string, so please type it as string": the reason before ", so".
const REASON_THEN = /^[^.!?]*?[,，]\s*so\s+(?=please\b|pls\b)/iu;

// ", not local time", ", pas l'inverse", ", nicht im JDK-Ordner", "，不是7小时", "instead of …" (", no X" is
// one more constraint in English: "full sentences, no headings").
const REJECTED =
  /\s*(?:[,，]\s*(?:not|pas|nicht|不是)\s+[^,，]+|\s+(?:instead of|rather than)\s+[^,，]+|(?<=\brather\b.*)\s+than\s+[^,，]+)$/iu;

// A reason or aside after the fix: a clause with its own subject after a comma, "would be cool too".
// An aside that is never part of a fix: "…, but this one's fine", "… would be cool too", "… though".
const ASIDE =
  /(?:\s*[,，]?\s*(?:[Bb]ut|mais|aber|pero)\s+(?:this one|that one|this was|this is|pour celui-ci|celui-ci|hier|este|esta vez|dieses? mal)\b[^,，]*|\s+would be (?:cool|nice|great|good|helpful|better)\b[^,，]*|\s+(?:though|too|as well))[.!?]*$/u;
const TRAILING =
  /(?:\s*[,，]\s*(?:hier ist|[Ii] (?:just|had|have|really|need|told|said|already|mean|think|don'?t|do not|read|use|work|live|only|always|never|\w+ed)|[Ii]'?m|[Ii]'?d|[Ii]t'?s|[Oo]ur|[Mm]y|[Ww]e|[Tt]hey|[Tt]hat'?s|[Tt]his (?:one|was|is)|so wie|comme|que|[Tt]hen|[A-Z][a-z]+ (?:already|just|has|had|is|was|said|sent))\b[^,，]*)[.!?]*$/u;
// "我要的是降序,你给的是升序": what the answer gave, after what the user wanted.
const YOU_GAVE_CJK = /\s*[,，]\s*(?:但|可)?你(?:(?:给|写|用|做)的(?:是|却是)|(?:才|只|却)(?:给|写|列|做)了)[^,，。]*[。！!]*$/u;
const TRAILING_PLEASE = /\s*[,，]?\s*(?:please|pls|plz|bitte|por favor|porfa|s'il te pla[iî]t|stp|svp)[.!?]*$/iu;

// "Going forward, …", "À l'avenir, …": the marker says when, the rest says what.
const FUTURE_LEAD =
  /^(?:(?:one thing |just )?for next time|next time|going forward|in (?:the )?future|from now on|à l'avenir|la prochaine fois|para la próxima(?: vez)?|en el futuro|de ahora en adelante|in zukunft|künftig|beim nächsten mal|nächstes mal)\s*(?:[,:]|\s[-–—])\s*/i;
// "btw next time …", "Small wish for next time: …", "One preference for the future: …": a few
// words before the marker, or a colon after it, lead into the wish. A marker that opens the hint
// ("Next time use pnpm …") is quoted with it by most writers, so it stays.
const FUTURE_MARKER = String.raw`(?:next time|for the future|in (?:the )?future|going forward|from now on)`;
const FUTURE_INTRO = new RegExp(
  String.raw`^(?:(?:[\p{L}']+[\s,]+){1,4}?${FUTURE_MARKER}\s*(?::\s*|,?\s*(?:can you|could you|would you|please|pls|just)\s+|\s+(?=\p{Ll}))|${FUTURE_MARKER}\s*:\s*)`,
  'iu',
);

/** Words as the older lead-in and reason cuts count them: a run of letters (a CJK run is one). */
const runs = (text: string) => (text.match(/[\p{L}\p{N}'-]+/gu) ?? []).length;

/** A hint without its leading "Going forward," (the when, not the what). */
export function withoutFutureLead(hint: string): string {
  const intro = FUTURE_INTRO.exec(hint);
  // A lead-in with more than the marker ("btw next time …", "One preference for the future: …").
  if (intro !== null && !FUTURE_LEAD.test(hint)) {
    const rest = hint.slice(intro[0].length).replace(/^(?:can you|could you|would you|please|pls|just)\s+/i, '');
    if (runs(rest) >= 2) return rest.replace(/\?\s*$/, '');
  }
  // Only before a long wish: in a short one ("Next time, skip the preamble.") the marker is a
  // large part of what a reader quotes as the hint, in a long one it is noise.
  const rest = hint.replace(FUTURE_LEAD, '');
  return runs(rest) >= 5 ? rest : hint;
}

// A clause after the fix that gives its reason or says what happens to this answer ("…, das Sie
// ist mir zu steif.", "…, I'll rename this one", "…, c'est trop pour LinkedIn.", "…, es para el
// director del banco."): it opens with its own subject, so it is not part of what to do.
const TRAILING_REASON =
  /\s+que (?:mi|mis|el|la|los|las|nuestro|nuestra|yo)\s[^,，]*$|[,，]\s*(?:(?:i'll|i will|i'?m|i can|we|our|my|it's|it is|this one|that one|because|since|as it|which|so that|por eso|por lo que|das|dies|es ist|ich|wir|unser\w*|mein\w*|weil|da|damit|c'est|ce|je|nous|on|notre|mon|ma|car|parce que|es para|es que|eso|esto|porque|ya que|nuestr\w+|mi|yo)\b|(?:der|die|das|le|la|el|the) \p{L}+ (?:ist|is|est|es)\b)[^,，]*$/iu;

/** A hint without a trailing clause that gives its reason ("bitte siezen, das ist ein Kunde" → "bitte siezen"). */
export function withoutTrailingReason(hint: string): string {
  const m = TRAILING_REASON.exec(hint);
  if (m === null) return hint;
  const rest = hint.slice(0, m.index).trim();
  return runs(rest) >= 2 ? rest : hint;
}

/**
 * Applies a cut that drops k of a hint's words and keeps n when a reader quoting either way would
 * still match (n ≥ 3k: the kept part alone covers a quote of the whole; the hint match needs 75%),
 * or when the dropped part outweighs the kept one (n < k: a reader quoting the short fix would not
 * match the whole). In between, the whole matches both readers and stays.
 */
function cutIf(text: string, cut: (t: string) => string, always = false): string {
  const next = cut(text).trim();
  if (next === text) return text;
  const n = words(next).length;
  const k = words(text).length - n;
  return n >= MIN_WORDS && (always || n >= 3 * k || n < k) ? next : text;
}

/** What a hint says once politeness and punctuation are set aside. */
const POLITE = /\b(?:please|pls|plz|bitte|por favor|porfa|stp|svp)\b|s'il te pla[iî]t|[\s?.,!]/giu;

/**
 * The hint as a reader quotes the fix: without its lead-in, politeness, rejected alternative and
 * trailing reason. The lead-in that says when is cut only from a wish for later (`wish`); on a
 * correction "next time …" is part of what the user said. A hint that would lose only a "please"
 * or its question mark stays as written: no reader's match depends on it.
 */
export function tightenHint(hint: string, wish = true): string {
  const whole = hint.trim();
  let h = cuts(whole, wish, false);
  // Cuts that each keep too much to be made alone may together leave a fix shorter than what they
  // drop ("for future ones pls keep it under 200 words, I read these on my phone"): then all are made.
  const all = cuts(whole, wish, true);
  const kept = words(all).length;
  if (all !== h && kept >= MIN_WORDS && kept < words(whole).length - kept) h = all;
  // A question that asks for the change ("could you rewrite it …?") is quoted as the change.
  h = h.replace(/\s*\?+$/, '');
  return h.replace(POLITE, '') === whole.replace(POLITE, '') ? whole : h;
}

/** The cuts in order; `force` makes each one whatever it keeps, and keeps the rejected alternative. */
function cuts(whole: string, wish: boolean, force: boolean): string {
  let h = whole;
  if (wish) h = cutIf(h, (t) => t.replace(WHEN, '').replace(WHEN_CJK, ''), force);
  h = cutIf(h, (t) => t.replace(ASIDE, ''), true);
  h = cutIf(h, (t) => t.replace(PRAISE_THEN, ''), true);
  h = cutIf(h, (t) => t.replace(PRAISE_THEN_CJK, ''), true);
  h = cutIf(h, (t) => t.replace(ASK_CJK, ''), true);
  h = cutIf(h, (t) => t.replace(REASON_BEFORE_CJK, ''), true);
  h = cutIf(h, (t) => t.replace(YOU_GAVE_CJK, ''), true);
  h = cutIf(h, (t) => t.replace(DESCRIPTION_THEN, ''), true);
  h = cutIf(h, (t) => t.replace(REASON_THEN, ''), force);
  h = cutIf(h, (t) => t.replace(ASK_LEAD, ''), force);
  for (let i = 0; i < 3; i++) {
    const before = h;
    h = cutIf(h, (t) => t.replace(TRAILING_PLEASE, ''), force);
    h = cutIf(h, (t) => t.replace(ASIDE, ''), true);
    h = cutIf(h, (t) => t.replace(TRAILING, ''), force);
    if (!force) h = cutIf(h, (t) => t.replace(REJECTED, ''));
    if (h === before) break;
  }
  return h;
}

/** A reply's hint as the judge gives it: the older lead-in and reason cuts, then `tightenHint`. */
export function quotedHint(hint: string, wish: boolean): string {
  return tightenHint(withoutTrailingReason(wish ? withoutFutureLead(hint) : hint), wish);
}
