// Japanese, Spanish, German and French replies: cue lists at the level of the Chinese ones (wink
// has English only). Each language has praise, complaint and instruction cues plus approving
// negations ("特に問題ないです", "no tengo ninguna queja", "passt so", "rien à redire") that are
// read before the complaints they contain, and acknowledgements/deferrals that are neutral.
// Hints are the instruction sentence in the user's own words.

import type { Cues, FeedbackReading } from './types.ts';
import { WORLD_CUES, WORLD_LETTERS, WORLD_WORDS, type WorldLang } from './world-languages.ts';

/** The six languages every part of the reader knows (corrections, hints, cue lists). */
export type Lang = 'en' | 'zh' | 'ja' | 'es' | 'de' | 'fr';
const SIX: ReadonlySet<string> = new Set<Lang>(['en', 'zh', 'ja', 'es', 'de', 'fr']);
/** Whether a language is one of the six every part of the reader knows (the classifier, corrections). */
export function isSixLanguage(lang: string): lang is Lang {
  return SIX.has(lang);
}
/** A reply's language: the six, the world languages read by cue lists, or `und` (a script no reader knows). */
export type ReplyLang = Lang | WorldLang | 'und';
type CueLang = Exclude<ReplyLang, 'en' | 'zh' | 'und'>;

// JavaScript's \b knows ASCII letters only: /\bprobé\b/ never matches "probé " and /\bça\b/ never
// matches "ça". The cue lists below are written with \b and compiled with a Unicode word boundary.
const BOUNDARY = '(?:(?<=[\\p{L}\\p{N}_])(?![\\p{L}\\p{N}_])|(?<![\\p{L}\\p{N}_])(?=[\\p{L}\\p{N}_]))';
function unicodeBoundaries(re: RegExp): RegExp {
  return new RegExp(re.source.replace(/\\b/g, BOUNDARY), re.flags.includes('u') ? re.flags : `${re.flags}u`);
}

const WRITTEN_CUES: Record<'ja' | 'es' | 'de' | 'fr', Cues> = {
  ja: {
    approve:
      /(特に問題(ない|なし|ありません|なかった)|問題(ない|なし|ありません)(です)?|文句(は)?(ない|なし|ありません)|(エラー|バグ)(は|が)?(もう)?(出なく|出ません|なくなり|消え)|(崩れ|落ち|固まら|止まら)(なく|ず)なり)/,
    ack: /^(はい|了解|わかりました|分かりました|承知|OK|オッケー)?[、。,.\s]*(了解(です)?|わかりました|分かりました|承知しました|後で|あとで|明日)(試|確認|見)?|(ちょっと|少し)?考え(ます|てみ)|(また|後日|今度)(試|確認|見)/,
    negative:
      /((?<!何が|どう|どこが)違(う(?!んでしたっけ)|います|いま)|ちが(う|います)|動(か|き)(ない|ません)|エラー|間違|まちが|だめ|ダメ|おかしい|変です|関係ない|関係ありません|意味(が)?(ない|わからない)|直って(ない|いない|いません)|まだ|また同じ|長すぎ|多すぎ|遅すぎ|わかりにくい|分かりにくい|使えない|失敗|もういい|何これ|なにこれ|は？|質問に答えて|違って|はずです(が|けど)|\bNG\b|(もう|既に|すでに)(やった|試した|やりました|試しました)|(長|多|遅|重|難し|複雑|地味|派手|硬|堅|固|うるさ|大き|小さ|細か|短|暗|薄|濃|古|雑|適当)すぎ(る|ます|て|です|かな|じゃ)|(前|さっき)にも(試し|やり)|(さっき|前|先ほど)と同じ|「[^」]+」でしょ|[\d０-９]+[^\s、。]{0,4}でしょ|[\d０-９,]+\S{0,3}(ですよ|ではありません|じゃない)|全然[^。！？]{0,12}(ない|ません)|(届い|送れ|反映され|変わっ)てない|もう[0-9０-９一二三四五]+回目|^はいはい|棒読み|廃止)/,
    // "次はこれを月別に集計したいんですが、できますか？" asks for the next task, not for later answers.
    future: /(次回(から|は)?|次から(は)?|(?<!じゃあ|では)次は(?![^。！？]*(?:も|たい|できますか|ますか))|今後(は)?|これから(は)?)/,
    instruction:
      /(ください|下さい|して(ほしい|欲しい)|にして|してくれ|お願い(します)?|しないで|やめて|(もっと|より)\S+(して|に)|(もっと|より)[^。、]+で$|ないと(ダメ|だめ|いけない|まずい)|て(もらえ|いただけ|くれ)(ます|ません)?か)/,
    positive:
      /(ありがと|美味しく|おいしく|いい感じ|助かり|助かった|完璧|素晴らし|すばらし|すごい|いいですね|良いですね|いいね|爆速|ばっちり|バッチリ|動きました|うまくいき|上手くいき|できました|最高|さすが|完璧|助かる|分かりやすい|わかりやすい|勉強になり|なるほど|解決しました|直りました|直った|動いた|いけた|通った|通りました|指摘(は)?(なし|ありません|なかった)|よかった|良かった|神|喜ばれ|ハマ(った|る)|最高|好評|楽しみ)/,
    more: /^(次は|ついでに|あと|それと|じゃあ|では|ところで)|別件|(も|を)?(教えて|お願い|頼む|作って)(もらえ(ます|る)?)?[？?]?$/,
  },
  es: {
    approve:
      /\b(ninguna queja|sin quejas|nada que (objetar|añadir|cambiar)|así está bien|déjalo así|(salió|sale|quedó) sin (errores|problemas|fallos)|ya no (falla|da error|se cuelga|hay errores|se (envía|duplica|repite|cuelga|rompe)\w*)|no me puedo quejar|ya (tengo|funciona|va|anda|sirve)\b[^.!?]*\b(otra vez|de nuevo))\b/i,
    ack: /^(vale|ok|de acuerdo|entendido|bueno|claro|dale)?[,.!\s]*(lo (pruebo|probaré|reviso|miro)|luego|después|más tarde|mañana)\b|^(vale|ok|de acuerdo|entendido|claro|dale|adelante)[.!]*$|\b(lo (consulto|hablo|pregunto|pienso)|te (digo|cuento) (algo|luego|mañana|después)|(tengo que|déjame|necesito) pensarlo)\b/i,
    negative:
      /\b(no funciona|sigue (sin|fallando|dando|igual|mal)|error|errores|mal|incorrect[oa]|equivocad[oa]|no es lo que|no sirve|otra vez|de nuevo|ya (lo )?(intenté|probé|hice)|no tiene nada que ver|me rindo|demasiado|no entiendo|qué\?|en serio\?|nada que ver|fatal|un desastre|(sí|ya),? claro|lo mismo que (antes|me diste)|no me entero|no (compila|carga|arranca|abre|sirve|va|anda|sale|aparece|cambia)|el problema es|lo dije|^no,)\b/i,
    future:
      /\b(la próxima( vez)?|para la próxima|para otra vez|en (el )?futuro|a futuro|a partir de ahora|de (ahora|aquí) en adelante|siempre)\b/i,
    instruction:
      /\b(por favor|(puedes|podrías|podrias) \w+|ponme|hazlo|hazla|hazlos|ponlo|ponla|pon|cámbialo|cambia|escríbelo|escribe|dámelo|dame|usa|utiliza|quita|elimina|agrega|añade|haz|prefiero|debería|deberías|sin \w+|más (corto|breve|simple|sencillo|claro))\b/i,
    positive:
      /\b(gracias|perfecto|genial|excelente|brutal|chido|le encantó|le encanto|funciona|me encant(a|ó|an|aron)\w*|buenísimo|de lujo|justo lo que|increíble|muy útil|estupendo|maravilla|bien hecho|funcionó|bien explicado|ahora sí|ya funciona|lo entiendo|me salvaste|quedó (perfect[oa]|genial|buenísim[oa]|justo)|funcionó|salió (perfect[oa]|genial|bien)|(todo|todos|todas)[^.!?]{0,20}en verde|olé|listo)\b/i,
    more: /^(y )?(ahora|después|luego|también)\b|\b(me ayudas|puedes ayudarme)( con (eso|esto))?\s*\??$/i,
  },
  de: {
    approve:
      /\b(passt so|kein(e)? (problem|probleme|beschwerden)|nichts (zu meckern|auszusetzen|zu beanstanden)|kein(e|en)? (fehler|timeouts?|abstürze|probleme|warnungen|errors?|crashes) mehr|stürzt nicht mehr ab|lass es so)\b/i,
    ack: /^(ok|okay|alles klar|verstehe|verstanden|gut)?[,.!\s]*(ich (teste|probiere|schaue) (es|das)? ?(später|morgen|nachher)|mach(e)? ich später)\b|^((ok|okay|ja|gut)[,.!\s]+)?(ok|okay|alles klar|verstanden|mach ruhig|leg los)[.!]*$|\b(mach|schau|frag|teste|probier)(e)? ich (mir )?(\w+ )?(morgen|später|nachher|nächste woche|am wochenende)|\b(morgen|später|nächste woche) (mal )?(schau|frag|teste|probier)|muss ich (mir )?(noch )?überlegen|ich überlege (es )?mir/i,
    negative:
      /\b(funktioniert (immer noch |noch )?nicht|geht (immer noch |noch )?nicht|falsch|fehler|immer noch|schon wieder|nicht (das|was) ich|hab(e)? ich (doch )?schon (versucht|probiert|gemacht)|zu (lang|kompliziert|viel|ausführlich)|hilft nicht|bringt nichts|ich geb(e)? auf|quatsch|unsinn|themaverfehlung|hat nichts mit|am thema vorbei|hä\?|wie bitte\?|na (toll|super|klasse|prima|bravo)|noch verwirrter|gar nichts mehr|^(nee|nö|ne)\b|(kompiliert|startet|lädt|läuft|klappt|öffnet)( \w+)? (immer noch |noch |gar )?nicht|derselbe fehler|dasselbe problem|nervt|richtig ist|korrekt ist|richtig wäre|korrekt wäre|^nein\b)\b/i,
    future: /\b(nächstes mal|beim nächsten mal|in zukunft|künftig|ab jetzt|von jetzt an|immer(?! noch))\b/i,
    instruction:
      /\b(bitte|(kannst|könntest) du|mach(e)?|nimm|verwende|benutze|schreib(e)?|lass \S+ weg|entferne|füge|ändere|sollte(st)?|ohne \w+|kürzer|einfacher|als tabelle|auf (deutsch|englisch))\b/i,
    positive:
      /\b(danke|perfekt|passt(?! nicht)|super|toll|klasse|funktioniert|passt genau|stimm(t|en) (genau|überein|mit [^.!?]{1,40} überein)|genau (das|so)|prima|hilfreich|spitze|wunderbar|sehr gut|gut gemacht|läuft|einwandfrei|klappt|geklappt|zufrieden|sauber|lecker|mega|wahnsinn|top|geil|endlich wieder|(ist|sind|wird|wurde) (jetzt |endlich |wieder )?grün|wie geplant|lecker)\b/i,
    more: /\b(jetzt noch|als nächstes|außerdem noch|dann noch|noch (ein|eine|einen)|(ein|eine|einen) ähnliche\w*)\b|^und (wie|was|wo|kann)\b/i,
  },
  fr: {
    approve:
      /(rien à (redire|ajouter|signaler)|aucun (souci|problème)|pas de (souci|problème)|plus d'erreurs?|ne plante plus|c'est bon comme ça|laisse comme ça)/i,
    ack: /^(d'accord|ok|compris|entendu|ça marche)?[,.!\s]*(je (testerai|vais tester|regarde(rai)?|verrai)|plus tard|demain)\b|^(d'accord|ok|compris|entendu|vas-y|allez-y)[.!]*$|\bje (verrai|regarderai|testerai|vais (demander|voir|regarder|réfléchir))\b|faut que je réfléchisse|faut que j'en parle|faut que je (demande|vérifie|voie)|je ne sais pas encore|pas encore (testé|essayé)|\b(ce soir|plus tard|demain)\s*[.!]*$/i,
    negative:
      /(ne marche (toujours )?pas|marche pas|(c'est |est )?cassée?s?|ne fonctionne (toujours )?pas|fonctionne pas|erreur|faux|incorrect|toujours (pas|la même)|encore (une fois|raté)|pas ce que|j'ai déjà (essayé|fait)|trop (long|compliqué|verbeux|littéral|formel|technique|vague|sec)|hors sujet|n'importe quoi|plus rien ne \S+|rien ne (marche|compile|fonctionne|va)|c'est nul|ne sert à rien|j'abandonne|laisse tomber|^quoi \?|^hein \?|(bah|ben|eh bien) bravo|(la )?prod (est|était) (tombée|down|cassée)|a planté|ah ouais,? (génial|super|top|merci)|merci hein|ce que tu m'as (déjà )?(dit|donné|proposé)|tu as supprimé|déjà fait|aucun changement|rien n'a changé|^non\b|\bne (?!sais\b)\S+ (même |toujours |jamais |plus |vraiment )?pas\b|\bn'(est|a|arrive) (même |toujours |vraiment )?pas\b|sauf que)/i,
    future: /(la prochaine fois|les prochaines fois|(pour )?les prochain(e)?s\b|à l'avenir|désormais|dorénavant|toujours)/i,
    instruction:
      /(s'il (te|vous) pla[iî]t|peux-tu|pouvez-vous|pourrais-tu|pourriez-vous|\bstp\b|\bsvp\b|\bmets\b|mets-le|\butilise\b|\benlève\b|\bsupprime\b|\bajoute\b|(?:^|[,.!]\s*)change\b|(?<!je )\bfais\b|\bécris\b|il faudrait|\bfaut\b|plus (court|simple|clair)|en (anglais|français)|sous forme de tableau|\bsans \w+|\b(tutoie|vouvoie|\w+(?:e|ez|s))-(?:le|la|les|moi|nous|lui)\b|(?:^|[.!?,]\s*)(?:tutoie|vouvoie)\b)/i,
    positive:
      /(merci|parfait|génial|super|excellent|chapeau|ça marche|ça fonctionne|impeccable|nickel|\btop\b|bravo|exactement|très utile|ça roule|formidable|passe enfin|ça marche maintenant|c'est réglé|j'ai compris|génie|adoré|remarche|ça tourne|c'est bon|nickel|au top|c'est clair|unanimité|(passe|marche|fonctionne) (enfin|maintenant))/i,
    more: /(^|[.!?]\s*)(et )?(maintenant|ensuite|du coup|après)\b|^et (pour|comment|si)\b/i,
  },
};

const CUES = Object.fromEntries(
  Object.entries({ ...WRITTEN_CUES, ...WORLD_CUES }).map(([lang, cues]) => [
    lang,
    Object.fromEntries(Object.entries(cues).map(([k, re]) => [k, unicodeBoundaries(re)])) as unknown as Cues,
  ]),
) as Record<CueLang, Cues>;

// Function and chat words that English does not use (or hardly: "die", "so", "was" are left out),
// and letters English does not write; each occurrence counts one. Sets, not one big regex: the
// language is read twice per reply and this is on the judge's hot path.
const WORDS: Record<'es' | 'de' | 'fr', ReadonlySet<string>> = {
  es: new Set(
    'el la los las una unos todos todas todo verde está están estoy que qué por para pero muy lo ya sigue funciona funcionó queja vale ninguna tengo tiene otra vez ponlo favor mismo también cómo eso esto esta este mi te se le nos y con sin del al son fue hay pedí quedó salió necesito necesita como bien mal perdón oye espera entendido listo mil gracias tema sabes ahora dices sí aquí nada todo solo pusiste dijiste fuimos hace puedo quiero algo cuando donde porque aunque todavía bueno claro dale genial perfecto me'.split(
      ' ',
    ),
  ),
  de: new Set(
    "das der den dem des ein eine einen einem und ist sind nicht ich du wir ihr mit ohne auf kein keine keinen passt schon auch wieder geht funktioniert noch immer bitte danke mal hab habe hab's mein meine dein deine kannst soll sollte wie warum wieso jetzt gleich gar nichts mehr seit frag morgen muss kurz falsch falscher falsches andere frage moment verstanden geworden erklärt sauber toll ruhig mach aber oder für von zu im am zum vom über sehr gut schau eigentlich gestern heute hier dann doch nur weil wenn sich sie es wird wurde haben kann genau klar alles".split(
      ' ',
    ),
  ),
  fr: new Set(
    "le la les une des du de est c'est ça pas je tu il on nous vous merci avec sans pour mais très toujours encore rien mets plaît que qui quoi quel quelle comment pourquoi ce cette mon ma mes ton ta tes y été était fait faut bon bien oui dans sur au aux et t'es t'as j'ai c'était là ici alors aussi peux peut veux suis avait moi toi lui leur autre chose sujet attends oups dsl mdr parfait génial voilà bah ben hein tout plus me enfin passe".split(
      ' ',
    ),
  ),
};
/** Word beginnings: "jajaja", "encantan"; French elisions "l'heure", "qu'il". */
const PREFIXES: Record<'es' | 'de' | 'fr', RegExp> = { es: /^(jaja|encanta)/, de: /^$/, fr: /^(l|d|j|qu|c|s|t|n|m)'\p{L}/u };
const LETTERS: Record<'es' | 'de' | 'fr', RegExp> = { es: /[ñ¿¡áíóú]/gu, de: /[äöüß]/gu, fr: /[çœàèêëîôùû]/gu };
// English words that outvote those ("no", "a", "super" … are shared and count for nobody).
const ENGLISH: ReadonlySet<string> = new Set(
  "the is it it's this that and not you your works worked thanks thank please i i'm to of was what why how can with for my me just now still again should would could have has did does do be are were will but so too only all one then got get there they we he she if at in on an".split(
    ' ',
  ),
);

let lastText = '';
let lastLang: ReplyLang = 'en';

/**
 * The reply's language: by script first (kana → ja, other CJK → zh, Hangul → ko, Cyrillic → ru,
 * Arabic → ar; a script no reader knows → und), then Latin replies by function words and letters.
 */
export function detectLanguage(text: string): ReplyLang {
  if (text === lastText) return lastLang;
  lastLang = readLanguage(text);
  lastText = text;
  return lastLang;
}

/** Scripts with a reader, and scripts without one (Hebrew, Greek, Thai, Devanagari, …). */
const SCRIPTS: Array<[RegExp, ReplyLang]> = [
  [/[\u3040-\u30ff]/, 'ja'],
  [/[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/, 'ko'],
  [/[\u3400-\u9fff]/, 'zh'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Arabic}/u, 'ar'],
  [
    /[\p{Script=Hebrew}\p{Script=Greek}\p{Script=Thai}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Georgian}\p{Script=Armenian}\p{Script=Ethiopic}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Gujarati}\p{Script=Gurmukhi}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Lao}]/u,
    'und',
  ],
];

type LatinLang = 'es' | 'de' | 'fr' | 'pt' | 'it' | 'tr' | 'hi';
const LATIN: readonly LatinLang[] = ['es', 'de', 'fr', 'pt', 'it', 'tr', 'hi'];
const LATIN_WORDS: Record<LatinLang, ReadonlySet<string>> = { ...WORDS, ...WORLD_WORDS };
const LATIN_LETTERS: Record<LatinLang, RegExp> = { ...LETTERS, ...WORLD_LETTERS };

function readLanguage(text: string): ReplyLang {
  // The script of most letters decides ("ok 감사합니다" is Korean, a Korean name in English is not).
  const letters = text.match(/\p{L}/gu) ?? [];
  const latin = letters.filter((l) => /\p{Script=Latin}/u.test(l)).length;
  for (const [script, lang] of SCRIPTS) {
    const n = letters.filter((l) => script.test(l)).length;
    if (n > 0 && (n >= latin || lang === 'ja' || lang === 'zh')) return lang;
  }
  const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  if (words.length === 0) return 'en';
  let best: ReplyLang = 'en';
  let bestHits = 0;
  for (const lang of LATIN) {
    let hits = (text.toLowerCase().match(LATIN_LETTERS[lang]) ?? []).length;
    for (const w of words) if (LATIN_WORDS[lang].has(w) || (lang in PREFIXES && PREFIXES[lang as 'es'].test(w))) hits++;
    if (hits > bestHits) [best, bestHits] = [lang, hits];
  }
  const english = words.filter((w) => ENGLISH.has(w)).length;
  return bestHits > english && (bestHits >= 2 || words.length <= 3) ? best : 'en';
}

// "son 12, no 10", "à droite, pas à gauche", "die, nicht der": the answer said the second.
const STATED_CONTRAST = unicodeBoundaries(
  /,\s*(no|pas|nicht)\s+(\d+|à|a|en|el|la|le|les|los|las|der|die|das|den|im|in|au|un|une|uno|una|ein|eine|deux|trois|quatre|cinq|six|dos|tres|cuatro|cinco|seis|zwei|drei|vier|fünf|sechs)\b|ではなく|じゃなくて/i,
);

const ERROR_HANDLING = /gestion des erreurs|manejo de errores|gestión de errores|エラー(処理|ハンドリング)|Fehlerbehandlung/giu;

// Asking to add to a result ("also", "too", "one more", "noch", "ещё", "bhi", "كمان", "도", "也") or to
// change it ("instead", "shorter", "without", "remove"), in every language the cue lists read.
const ADDS = unicodeBoundaries(
  /\b(also|too|add|another|one more|noch|auch|dazu|außerdem|aussi|ajoute|encore un|también|añade|agrega|otro|otra|anche|aggiungi|pure|também|tambem|tbm|adiciona|mais um|ещё|еще|тоже|добавь|bhi|aur ek|ek aur|daal do|add kar|de ekle|da ekle|bi de|bir de|ekle)\b|كمان|أيضا|ايضا|ضيف|أضف|도\s|추가|也|还要|再加|追加|も(お願い|追加|入れ)/i,
);
// Asking to go ahead with what was proposed ("book it", "бронируй", "予約しちゃってください", "book kar do").
const PROCEED = unicodeBoundaries(
  /\b(go ahead|book it|send it|do it|confirm it|бронируй|отправляй|давай|book kar do|bhej do|kar do|buch das|mach das|schick es|reserva(lo|la)?|envíalo|mándalo|réserve|envoie|prenota(lo|la)?|invia(lo|la)?|manda(lo|la)?|envia|rezervasyon(u)? yap|gönder|احجز|ابعت|ارسل)\b|予約(して|しちゃって)|送って|お願いします|예약해|보내\s?줘|订吧|发吧/i,
);
// A reply that opens by accepting ("tamam", "gut", "よし", "好", "ok"): what follows builds on the answer.
const OPENS_WITH_YES = unicodeBoundaries(
  /^(?:ok|okay|gut|tamam|tmm|vale|va bene|d'accord|ладно|ок|theek hai|ok bhai|تمام)\b|^(?:よし|好的?|좋아|오케이)/i,
);
// Italian "ma" (but) only where a clause starts: French "ma sœur" (my) is no contrast.
const CHANGES = unicodeBoundaries(
  /\b(instead|rather|shorter|simpler|without|remove|delete|change|wrong|but|mais|pero|aber|però|mas|но|ama|lekin|plus (simple|court)|más (corto|simple)|kürzer|einfacher|più (corto|semplice)|mais (curto|simples)|покороче|проще|daha (kısa|basit)|thoda|bas|less|meno|menos|moins|weniger|меньше|formal|casual|polite|sin|ohne|sans|senza|sem|без|olmadan|bina|tira|quita|enlève|entferne|togli|убери|kaldır|hata do)\b|(?:^|[,;:.!?]\s*)ma\b|بدون|بس|근데|하지만|빼|でも|けど|但是|不过|去掉|删掉|덜|ちょっと|もう少し|少し|稍微/i,
);

const JOINER = /^(?:ただ|でも|けど|pero|aunque|aber|jedoch|mais|cependant)[、,\s]\s*/i;

/** Reads a reply in ja/es/de/fr by its cues. */
export function readOtherLanguage(text: string, lang: CueLang): FeedbackReading {
  const c = CUES[lang];
  const t = text.trim();
  if (c.approve.test(t) && !c.instruction.test(t.replace(c.approve, '')))
    return { score: 1, hint: null, cues: [`${lang}:approving negation`] };
  if (c.ack.test(t) && !c.negative.test(t)) return { score: 0, hint: null, cues: [`${lang}:acknowledgement`] };
  // "いいね、じゃあ次は…", "top, maintenant …": the continuation after praise is a sentence of its own.
  const sentences = t
    .split(
      /(?<=[.!?。！？])\s*|(?<=[、,，،)])\s*(?=じゃあ|では|次は|이제|그럼|الحين|الآن|(?:maintenant|ensuite|du coup|ahora|jetzt|dann|agora|adesso|ora|теперь|а теперь|şimdi|simdi|ab)(?=[\s,.!?]|$))|\s+(?=じゃあ|次は|이제\s|그럼\s)|\n+/u,
    )
    .filter((s) => s.trim() !== '');
  // Error handling is a feature, not a complaint; a positive word inside a question ("¿y eso funciona …?") asks.
  const plain = t.replace(ERROR_HANDLING, ' ');
  // A contrast ("…, no 10", "…ではなく") states the fix, unless it sits in an instruction ("今後は…じゃなくて…にして").
  const stated = sentences.some((s) => c.instruction.test(s) || c.future.test(s)) ? null : STATED_CONTRAST.exec(t);
  const negative = c.negative.exec(plain.replace(c.approve, '')) ?? stated;
  const positive = c.positive.exec(plain.replace(/¿[^?]*\?/g, ' '));
  // After praise, "次は…も教えて" / "jetzt noch …" / "maintenant on peut …" asks for more: +1, no hint.
  const more = positive !== null && negative === null ? sentences.filter((s, i) => i > 0 && c.more.test(s) && !c.future.test(s)) : [];
  // A word inside praise is not an instruction ("то что надо", "yahi chahiye tha").
  const instructions = sentences.filter(
    (s) =>
      !more.includes(s) && (c.instruction.test(s.replace(new RegExp(c.positive.source, `${c.positive.flags}g`), ' ')) || c.future.test(s)),
  );
  if (more.length > 0 && instructions.length === 0)
    return { score: 1, hint: null, cues: [`${lang}:positive:"${positive![0]}"`, 'builds on'] };
  // "passt so, danke, kannst du noch Frau Schulz einladen", "ممتاز، ضيف أختي سارة كمان": after praise,
  // asking to add to the result builds on it; asking to change it ("mais fais plus simple") does not.
  if (
    (positive !== null || OPENS_WITH_YES.test(t)) &&
    negative === null &&
    instructions.length > 0 &&
    instructions.every((s) => (ADDS.test(s) || PROCEED.test(s)) && !CHANGES.test(s))
  )
    return { score: 1, hint: null, cues: [positive !== null ? `${lang}:positive:"${positive[0]}"` : `${lang}:accepted`, 'builds on'] };
  // "ただ、…", "pero …", "aber …", "mais …": the joiner belongs to the praise before it.
  const hint = instructions.length > 0 ? instructions.map((s) => s.trim().replace(JOINER, '')).join(' ') : null;
  const future = hint !== null && instructions.every((s) => c.future.test(s));
  const cues = [
    negative && `${lang}:negative:"${negative[0]}"`,
    positive && `${lang}:positive:"${positive[0]}"`,
    hint && `${lang}:instruction`,
  ].filter((x): x is string => typeof x === 'string');
  if (negative !== null) return { score: -1, hint, cues };
  if (hint !== null) return { score: positive !== null && future ? 1 : -1, hint, cues };
  if (positive !== null) return { score: 1, hint: null, cues };
  return { score: 0, hint: null, cues };
}
