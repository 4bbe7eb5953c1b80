// The correction a failing reply states as a fact rather than an instruction: "It's Canberra.",
// "You forgot the GROUP BY.", "I said under $800.", "是5个不是4个", "son 12 invitados, no 10",
// "der Artikel ist 'die', nicht 'der'", "je voulais le résultat en euros, pas en dollars". These
// say what the answer should have been, so they are hints as much as "make it shorter" is. Used
// only once the reply is read as a failure (−1): the last segment (sentence, or part after a
// dash, semicolon or colon) that carries such a cue, from the cue on when the cue opens a clause.

import { type Lang, type ReplyLang, isSixLanguage } from './languages.ts';

// Cues that open the correction: the hint starts at the cue ("… but you left out X" → "you left out X").
const OPENING: Record<Lang, RegExp> = {
  en: /\b(?:you (?:forgot|missed|left out|skipped|dropped|mixed up|swapped|never)|did you mean\b|you (?:still )?need (?:to )?(?=\w)|expected (?=[^,\s]+,?\s+(?:but )?got\b)|(?:it|that|this|the [\w-]+) needs? (?=[\p{L}\d]+[:=\d])|(?<!what )i (?:said|asked for|wanted|meant|need(?:ed)?|was asking for)\s+(?=[\p{L}\d'"$€£])|(?:can|could|would) you (?:please )?(?:make|change|use|add|remove|drop|swap|switch|put|turn|rewrite|shorten|convert|fix)|please (?!help|try|retry|redo|again|stop)\w+|(?:it|that|this|the answer|the result) (?:should|must|needs to) be|(?:isn'?t|wasn'?t|shouldn'?t|doesn'?t) (?:it|the|that|this) [^?]*\?|it'?s (?:actually |really )?(?=[\p{Lu}\d'"`$€£/~])|^needs? (?=\S)|^where(?:'s| is| are) (?:the|my) (?=\S)|\b(?:is|are) missing (?=\S)|^[^,]{1,40}? (?=(?:is|was) what i (?:needed|wanted|asked for|meant)\b)|(?<=^(?:for|on|in|with) [\p{L}\d -]{2,30} )(?:use|run|call|prefer) (?=\S)|the [\w-]+ (?:needs? to|has to|must|should) be (?=\S)|\bwe (?:use|run|deploy to|target|write) (?!(?:it|this|that|the|a|an|your|them)\b)(?=[\p{L}\d])|(?:i'?m|we'?re|we are) (?:using|on|running|targeting) (?!(?:it|this|that|the|a|an|my|your|our|some|what|mobile|phone|break|lunch|vacation|leave|holiday|call|site|it)\b)(?=[\p{L}\d]))/iu,
  zh: /(我让你|我叫你|[^，。,？?！]{1,20}(?:也要|还要)(?:支持|处理|加上?|考虑|包括)|应该是|应该用|应该翻|明明是|我(说|要)的是|你(忘|漏)了|(?<=[里中上])(忘|漏)了|是[^，。,]{1,20}[，,]?不是|不是[^，。,]{1,20}而是|最好)/,
  ja: /([^。！？、]{2,40}(?=(?:って|と)(?:言った|言いました|頼んだ|お願いした)|じゃないと|でないと)|ではなく|じゃなく|[^。！？、]*でしょ|[^。！？]{1,30}(?:して|直して|にして)(?:ください|もらえ|くれ|ほしい)|[^。！？「」]*「[^」]+」[^。！？]*です)/,
  es: /\b(?:tienes que|tienen? que|prueba (?:con|a)\b|(?:te )?falt(?:a|an|ó|aba)\b|(?:l[aoe]s? )?necesito\b|(?:déja|pon|haz|pása|cámbia|escríbe|dé|pon)l[oa]s? (?=\S)|hay que|necesita|quería|quise decir|te pedí|dije|debería ser|olvidaste|(?:puedes|podrías) (?=\w)|son \d|es \d|en vez de|en lugar de)/i,
  de: /^(?:(?:die|der|das|ein|eine)\s+)?[a-zäöüß\d][a-zäöüß\d .'-]{1,40}\sfehlt\b|\bbitte (?=(?:ohne|mit|auf|als|in|im|nur|kein\w*)\s)|\b(?:du musst|man muss|(?:es )?müssten? |muss|ich wollte|ich meinte|ich sagte|ich hatte .* gesagt|du hast .* vergessen|sollte .* sein|(?:kannst|könntest) du (?=\w)|statt|anstatt)\b/i,
  fr: /(?:(?:il )?faut|tu dois|je voulais|je voudrais|j'ai dit|j'avais demandé|tu as oublié|(?:peux-tu|pouvez-vous|pourrais-tu|tu peux) (?=\S)|il y a \d|c'est \d|au lieu de)/i,
};
// Contrast cues: the whole segment is the correction ("son 12 invitados, no 10").
const CONTRAST: Record<Lang, RegExp> = {
  en: /\d\S*(?: [\p{L}.]+){0,2}\.? not \d|,\s*not\s+(?!what|that|how|quite|really|sure|even|at all|bad|great|good|helpful)[\p{L}\d'"$€£/`.]|\binstead of\b|\brather than\b/iu,
  zh: /是[^，。,]{1,20}不是|不是[^，。,]{1,20}(?:而是|[，,]是)/,
  ja: /(ではなく|じゃなく)/,
  es: /,\s*no\s+[\p{L}\d'"]/iu,
  de: /,\s*nicht\s+[\p{L}\d'"]/iu,
  fr: /,\s*pas\s+[\p{L}\d'"«]/iu,
};
// "it's /v2/orders not /v1/orders", "output CSV not JSON": a short "X not Y" that ends the
// segment, where X is not a verb's auxiliary ("it does not compile" says what is wrong, not what to do).
const BARE_CONTRAST =
  /(?<!\b(?:do|does|did|is|are|was|were|am|be|been|can|could|should|would|will|has|have|had|it's|that's|i'm|why|if|or|and|but|just|yet|still|maybe|probably|definitely|certainly|really|i|you|we|they|he|she|it|this|that|please|pls|[\p{L}]+n't))\s+not\s+(?!(?:really|quite|sure|yet|bad|too|very|that|what|it|so|just|only|at|even|exactly|much|great|good|helpful|working|work|the same|again)\b)[\p{L}\d/`'"._-]+(?:\s+[\p{L}\d/`'"._-]+){0,2}[.!]*$/iu;
// Cue words a preceding verdict clause may carry ("Non, …", "Das stimmt nicht, …") that are not part of the fix.
const LEAD = /^(?:no|nope|wrong|non|nein|não|not quite|das stimmt nicht|c'est faux|eso no es|不对|错了|違います)[,.!:，、。]\s*/i;

const DESCRIBES = /^(?:it|this|that|these|those) (?:looks|reads|sounds|feels|seems)\b/i;

/** Segments of a reply: sentences (a Latin end mark needs a space after it: "8.05 km" is one), then parts after a dash, semicolon or colon. */
function segments(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|(?<=[。！？])\s*|\s+[-–—]\s+|[;；]\s*|(?<=[:：])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** The last stated correction in a failing reply, or null (always null in a language without correction cues). */
export function correctionHint(text: string, replyLang: ReplyLang): string | null {
  if (!isSixLanguage(replyLang)) return null;
  const lang: Lang = replyLang;
  const parts = segments(text);
  // The detected language's cues first, then the others' (a short reply may be detected wrongly).
  const langs = [lang, ...(Object.keys(OPENING) as Lang[]).filter((l) => l !== lang)];
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i].replace(LEAD, '');
    if (isBareRedo(part)) continue;
    // "8 fl oz. not 12.": a bare "not Y" says the sentence before it was the right value.
    if (i > 0 && /^not\s+\S+[.!]?$/i.test(part) && !DESCRIBES.test(parts[i - 1])) return parts[i - 1].replace(LEAD, '').trim();
    // "the average of 4, 8, 15 is 9, you said 11": the clause before "you said/gave …" is the fix.
    const saidAt = part.search(/,\s*(?:but |and )?you (?:said|gave|wrote|put|got|have|used|had)\b/i);
    if (saidAt > 0) return part.slice(0, saidAt).trim();
    const open = langs.map((l) => OPENING[l].exec(part)).find((m) => m !== null) ?? null;
    if (open !== null) {
      // The cue opens a clause ("…, but you left out X"): start there; at the start, keep it all.
      const before = part.slice(0, open.index);
      // "…, es muss anzahl sein": a subject pronoun between the comma and the cue stays with the cue.
      const pronoun = /(?:,|，|、|\bbut\b|\bthough\b|\bpero\b|\baber\b|\bmais\b|ただ)\s*((?:es|das|it|that|this|il|ça|on)\s+)$/i.exec(
        before,
      );
      const cut =
        pronoun !== null
          ? open.index - pronoun[1].length
          : /^(?:忘|漏)了/.test(open[0])
            ? open.index
            : /(?:,|，|、|\bbut\b|\bthough\b|\bpero\b|\baber\b|\bmais\b|ただ)\s*$/i.test(before) ||
                /^(?:for|on|in|with) [\p{L}\d -]{2,30} $/iu.test(before)
              ? open.index
              : 0;
      // "TypeScriptで書いてって言ったよね": what was asked, without "I said so, right?".
      const said = part
        .slice(cut)
        // "pretty sure the script is missing #!/bin/bash at the top": what is missing.
        .replace(/^.*?\b(?:is|are) missing\s+/i, '')
        // "0 9 * * 1-5 is what I needed, yours runs on sundays": the value.
        .replace(/\s+(?:is|was) what i (?:needed|wanted|asked for|meant)\b.*$/i, '')
        // "…の商品もあるんですけど…対応してないですよね": the fact, not the complaint after it.
        .replace(/(?:んですけど|んだけど)[…。、]*.*$/u, '')
        .replace(
          /(?:って|と)(?:言った|言いました|頼んだ|お願いした)(?:よね|じゃん|のに|でしょ|はず)?[。！？!?…]*$|(?:じゃないと|でないと).*$/u,
          '',
        )
        .trim();
      // "I asked for sci-fi, half of these are fantasy": what was asked, not what came instead.
      return /^i (?:said|asked for|wanted|meant|was asking for)\b/i.test(said) ? said.replace(/,\s+(?!not\b|no\b).*$/i, '') : said;
    }
    // "It looks like a slide deck, not an essay" describes the answer; it does not say what to write.
    // Contrast cues of the detected language only: ", no …" is a Spanish contrast, an English list.
    // ", nicht …" and ", pas …" are contrasts in an English-looking reply too (a short German one is often read as English).
    const contrast = (lang === 'en' ? (['en', 'de', 'fr'] as const) : [lang]).some((l) => CONTRAST[l].test(part));
    // "Merci, mais nous sommes quatre, pas trois": the praise before the joiner is not the fix.
    if (contrast && !DESCRIBES.test(part)) return part.replace(/^[^,]*,\s*(?:but|mais|pero|aber)\s+/i, '').trim();
    // Without a comma the contrast is the last clause: "nah that's the wrong endpoint, it's /v2/orders not /v1/orders".
    if (lang === 'en' && !DESCRIBES.test(part)) {
      // The clause that holds it ('how="left" not inner, I\'m losing half my rows'); one about
      // who we are ("we're a startup not a bank") gives a reason, not a fix.
      const clauses = part.split(/,\s+/);
      const at = clauses.findIndex((c) => BARE_CONTRAST.test(c.trim()) && !/^(?:we|they|i)(?:'re|'m| are| am)\b/i.test(c.trim()));
      if (at >= 0) {
        const clause = clauses[at].trim();
        return (clause.match(/[\p{L}\d]+/gu) ?? []).length >= 3 || clauses.length === 1 ? clause : part.trim();
      }
    }
  }
  if (lang !== 'en') return statedFactIntl(parts, lang);
  // No cue anywhere: "there are 3 r's", "haiku is 5-7-5" — a stated value (a number) in a clause
  // about the thing, not about "you" or the answer ("That one is $1,400" describes the answer).
  for (let i = parts.length - 1; i >= 0; i--) {
    const fact = parts[i]
      .split(/,\s+/)
      .reverse()
      .find(
        (c) =>
          /(?:\bthere (?:are|is|were) (?:only )?\d|(?:\b(?:is|are|equals?|should be)|\s=)\s+(?:about |around |roughly |exactly )?[\d$€£])/i.test(
            c,
          ) && !/\byou\b|^(?:that|this|it|these|those)\b/i.test(c),
      );
    if (fact !== undefined) return fact.replace(/[.!]+$/, '').trim();
  }
  // "…. lists are mutable.", "brand color is #1F6F4A", "json doesn't allow trailing commas": after
  // the complaint, a plain statement about a named thing (not "you", "I" or the answer) states the fact.
  for (const part of parts) {
    const facts = part
      .split(/,\s+|\s+and\s+(?=(?:the|my|our|its)\s)/)
      .map((c) => c.replace(/^(?:but|though|also|and)\s+/i, ''))
      .filter((c) => STATES_FACT.test(c) && !ABOUT_ANSWER.test(c))
      .reverse();
    // The last one that says what is ("our API is snake_case" after "the keys are camelCase"),
    // before one that says what is not ("cross_validation doesn't exist anymore").
    const fact = facts.find((c) => !/n't\b|\b(?:not|never|no longer|anymore)\b/i.test(c)) ?? facts[0];
    // "postgres needs a named volume or we lose all data": the fact, not what happens without it.
    if (fact !== undefined)
      return fact
        .replace(/\s+or (?:else )?(?:we|you|i|it|they|anyone|someone|everyone|nobody|people|users)\b.*$/i, '')
        .replace(/[.!]+$/, '')
        .trim();
  }
  return null;
}

const STATES_FACT =
  /^(?:(?:the|my|our|a|an|its)\s+)?(?!(?:you|i|it|this|that|these|those|there|they|we|he|she|what|why|how|which|who|where|when|so|and|but|ok|okay|yes|yep|yeah|yup|no|nope|nah|lol|well|just|also|hmm+|wait|thanks|great|nice|cool|perfect|do|does|did|don'?t|doesn'?t|didn'?t|please|pls|never|always|only)(?![\p{L}'-]))[\p{L}\d#_.'-]+(?:\s+[\p{Ll}\d_-]+)?\s+(?:(?:only|still|never|always|actually)\s+)?(?:is|are|was|were|has|have|had|takes|allows|accepts|expects|requires|needs|uses|counts|caps|lives|runs|starts|ends|comes|goes|go|start|end|run|take|need|use|says|said|reads|shows|would be|should be|doesn'?t|don'?t|isn'?t|aren'?t|wasn'?t|can'?t)\b[^?]*$/iu;
const ABOUT_ANSWER =
  /\byou(?:r|'re|'ve)?\b|\b(?:the|this|that|your) (?:answer|code|script|query|output|result|version|one|list|table|text|draft|summary|reply)\b/i;

// A stated fact in ja/zh/es/de/fr: a clause with a copula or a comparison ("ポートは3000です",
// "长江比黄河长", "23乘17等于391", "die Hauptstadt ist Berlin", "la zona horaria es Europe/Madrid",
// "c'est Canberra"), that neither complains nor speaks of "you" or the answer.
const FACT_INTL: Record<Exclude<Lang, 'en'>, RegExp> = {
  ja: /[^、。！？]+(?:は|が)[^、。！？]*(?:です|でした|だ|だよ|ですよ)$|[^、。！？]+は[\d０-９][^、。！？]*/u,
  zh: /[^，。！？]*(?:等于|是|比[^，。！？]{1,12}(?:长|短|大|小|高|低|快|慢|多|少|早|晚)|有)\s*[^，。！？]*/u,
  es: /\b(?:es|son|era|eran|lleva|llevan|tiene|tienen|queda|está|están|cuesta|cuestan)\s+\S/iu,
  de: /\b(?:ist|sind|war|waren|liegt|liegen|heißt|beträgt|hat|haben|kostet|kosten)\s+\S/iu,
  fr: /\b(?:c'est|est|sont|était|étaient|il y a|y en a|fait|font|coûte|coûtent)\s+\S/iu,
};
const NOT_FACT_INTL =
  /你|您|我|\bc'est (?:un|une|pour|juste)\b|\b(?:wir|nous|nosotros|hemos)\b|这|那|错|不对|不是|不行|没|吗|あなた|君|違|ダメ|だめ|間違|おかしい|ません|ない|\b(?:du|dein\w*|du hast|ich|falsch|nicht|tú|usted|yo|mal|incorrect[oa]|no es|tu|toi|je|faux|pas|trop|zu|demasiado|too|bien|buen[oa]|genial|perfect[oa]|precios[oa]|bonit[oa]|estupend[oa]|increíble|excelente|gut|super|toll|prima|schön|bon|parfait|génial|top|magnifique|superbe)\b|[?？]|好|いい|良い|すごい/iu;

/** A stated fact in a non-English reply: the last clause with a copula that does not complain. */
function statedFactIntl(parts: string[], lang: Exclude<Lang, 'en'>): string | null {
  for (let i = parts.length - 1; i >= 0; i--) {
    const clauses = parts[i]
      .replace(LEAD, '')
      .split(/[，、]\s*|,(?!\d)\s*|(?<=ので|から)/u)
      .reverse();
    const fact = clauses.find((c) => FACT_INTL[lang].test(c.trim()) && !NOT_FACT_INTL.test(c) && /[\p{L}\p{N}]{2}/u.test(c));
    if (fact !== undefined)
      return fact
        .replace(/^(?:でも|けど|ただ|但是|不过|aber|pero|mais)[、,\s]*/iu, '')
        .replace(/(?:なので|ので|から)$/u, '')
        .replace(/[.!。！]+$/u, '')
        .trim();
  }
  return null;
}

/**
 * Joins the rules' instruction hint and the stated correction: the narrower one when one contains
 * the other, the instruction when they are apart (an instruction says what to do more surely).
 */
export function mergeHints(instruction: string | null, correction: string | null): string | null {
  // "It's 12 guests, not 10. Please redo the quantities.": a bare redo names nothing to change.
  if (instruction === null || isBareRedo(instruction)) return correction;
  if (correction === null) return instruction;
  if (instruction.includes(correction)) return correction;
  if (correction.includes(instruction)) return correction;
  return instruction;
}

// Words of a request that only asks for another attempt ("Please redo the quantities.", "Bitte
// nochmal rechnen.", "Refais le calcul s'il te plaît.", "Vuelve a calcularlo, por favor.").
const REDO_WORDS = new Set(
  (
    'please pls plz can could would you just redo re-do recalculate recompute recount recheck re-check again once more one ' +
    'time try do it that this the your math maths calculation calculations numbers quantities quantity totals total count ' +
    'sums sum figures work fix correct over bitte nochmal noch mal einmal rechnen neu berechnen berechne rechne zähl zähle ' +
    'das es korrigieren mach machen refais refaire le la les calcul calculs recalcule recompte compte s il te vous plaît plait ' +
    'encore une fois svp vuelve vuelva a calcular calcularlo calcúlalo contar cuenta cuéntalo bien rehazlo hazlo de nuevo otra ' +
    'vez por favor porfa lo'
  ).split(' '),
);
const REDO_CJK =
  /^(?:请|麻烦|你)?(?:重新|再)(?:算|计算|数|做|来|写|检查)(?:一下|一遍|一次)?(?:吧|好吗)?[。！!]*$|^(?:もう一度)?(?:計算し直して|やり直して|数え直して|計算して|やって)(?:ください|くれ|ほしい|もらえますか)?[。！!？?]*$/u;

// "I said that in my first message.", "Lo dije al principio 🙃": points back, names nothing.
const BARE_REFERENCE =
  /^(?:i (?:already )?(?:said|told you|mentioned) (?:that|so|it|this)|(?:please |pls |just )?(?:re-?)?read (?:my|the) (?:message|question|prompt|request|error)|(?:can you |could you )?(?:please |pls )?(?:actually |just )?answer the question|(?:ya )?(?:te )?lo (?:dije|había dicho)|ich hab(?:e)? (?:es|das) (?:doch )?(?:schon )?gesagt|je (?:te )?l'ai (?:déjà )?dit|(?:tu peux|peux-tu|pouvez-vous|pourrais-tu) (?:le )?corriger)\b[^.!?]{0,30}[.!?\s\p{Extended_Pictographic}]*$/iu;

/** Whether an instruction only asks for another attempt, naming nothing to change. */
export function isBareRedo(instruction: string): boolean {
  const text = instruction.trim();
  if (REDO_CJK.test(text) || BARE_REFERENCE.test(text)) return true;
  const words = text.toLowerCase().match(/[\p{L}\p{N}-]+/gu) ?? [];
  return (
    words.length > 0 &&
    words.length <= 8 &&
    words.every((w) => REDO_WORDS.has(w)) &&
    /redo|re-do|recalc|recomp|recount|recheck|re-check|again|^\W*(?:pls|please|plz)?\s*fix\b|nochmal|noch mal|neu|korrig|refai|encore|vuelve|vuelva|rehaz|de nuevo|otra vez|calcul|rechne|cuenta|cuéntalo/i.test(
      text,
    )
  );
}
