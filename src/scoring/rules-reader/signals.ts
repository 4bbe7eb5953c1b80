// Whole-reply signals that clause-by-clause sentiment misreads: negation that approves ("nothing
// to complain about", "no errors anymore"), failure without a complaint word (a question that
// exposes a defect, a count that came out wrong, "I already tried that", terse disbelief,
// sarcasm), a repeat of the request, and replies that are not about the answer ("wrong window").

/** A verdict a signal settles on its own, with the cue for the judge record. */
export interface Signal {
  score: 1 | 0 | -1;
  cue: string;
  /** The correction a second thought states ("it's 45 centerpieces"), when the signal carries one. */
  hint?: string | null;
}

/** The rest of the line after a marker, without its filler: what the second thought says. */
function restOfLine(text: string, marker: RegExp): string | null {
  const m = marker.exec(text);
  if (m === null) return null;
  const rest = text
    .slice(m.index + m[0].length)
    .split('\n')[0]
    .replace(/^[\s,，、.!！:;—–-]+/u, '')
    .replace(/^(?:(?:no|non|não|nein|нет|nahi|아니|pls|please|bitte|per favore|por favor)[,\s]+)+/iu, '')
    .trim();
  return /[\p{L}\p{N}]{2}/u.test(rest) ? rest : null;
}
/** The clause that holds a match: from the last comma or sentence end before it to the next sentence end. */
function sentenceOf(text: string, marker: RegExp): string | null {
  const m = marker.exec(text);
  if (m === null) return null;
  const end = m.index + m[0].length;
  // From the clause that holds the swap ("ach so, die Wohnungsnummer ist 14b nicht 14" → its second clause).
  const start = Math.max(
    text.lastIndexOf('\n', end - 1),
    ...['. ', '! ', '? ', '。', '！', '？', ', ', '，', '、'].map((p) => text.lastIndexOf(p, end - 2)),
  );
  const from = start < 0 ? 0 : start + 1;
  const stop = text.slice(end).search(/[.!?。！？\n]/u);
  const s = text
    .slice(from, stop < 0 ? undefined : end + stop)
    .replace(/^\s*(?:but|pero|ma|mas|aber|mais|ama|lekin)\b[,\s]*/iu, '')
    .trim();
  return /[\p{L}\p{N}]{2}/u.test(s) ? s : null;
}

// "nothing to complain about", "no complaints", "leave it as is", "the warnings are gone now",
// "it doesn't crash anymore", "no thanks, that's all I needed".
const APPROVING_NEGATION =
  /\b(nothing to (add|complain about|change|fix|criticise|criticize)|sent it as is|(didn'?t|did not|without) (change|changing|touch|touching|edit|editing) a (thing|word|line)|no complaints?|can'?t complain|(leave|keep) it (like that|as is|as it is)|(fine|good|ok) as (is|it is)|(is|are) (gone|fixed) now|no (more )?\w+ (any ?more|now)|(doesn'?t|does not|don'?t|isn'?t|no longer|not) (?!(?:exist|work|load|compile|run|build|start|show|open|respond|connect|install|import|help|support|apply|render|print|return|save|sync|boot|launch|match|fit|exists|works|loads|compiles|runs|builds|starts|shows|opens|responds|connects|installs|imports|helps|supports|applies|renders|prints|returns|saves|syncs|boots|launches|matches|fits|working|loading|compiling|running|building|starting|showing|opening|responding|connecting|installing|importing|helping|supporting|applying|rendering|printing|returning|saving|syncing|booting|launching|matching)\b)\w+(ing)? (any ?more|now)\b|\b(leak|error|errors|bug|bugs|warning|warnings|crash|crashes|issue|issues|problem|problems|flicker|flickering|lag|exception|exceptions|timeouts?|deadlock|race( condition)?|404s?|500s?|spam|noise|duplicates?) (is|are|went|has gone|have gone|seems?|seem to be) (totally |completely |finally |all )?(gone|fixed|resolved|away)\b|^(?:\W*\w+,?\s+){0,3}no more (?:red )?(?:drips?|squiggles|errors?|warnings?|crash(?:es)?|lag|leaks?|timeouts?|flicker(?:ing)?|duplicates?|spam|noise|password prompts|prompts|popups|pop-ups|404s|500s|retries|stalls|freezes)\b[^?]*$|\bcan'?t believe (it|that) was (that |so )?(simple|easy)\b|\bwithout (any |a single |a |one |the )?(password prompt|prompt|downtime|errors?|issues?|problems?|hiccups?|warnings?|glitch(es)?|complaints?|data loss)\b|\b(fired|ran|runs|worked|works|went|finished|completed|behaves|behaved|triggered|kicked off)\b[^.!?]{0,25}\b(as (expected|planned|intended)|like it should)\b|\bhaven'?t (seen|had|gotten|got|hit) (a single|any|one|another)\b[^.!?]*\b(since|anymore|again)\b|\bwithout (changing|touching|editing) (a (single )?(word|line|thing)|anything)\b|no thanks?,? (that'?s|that is|that covers|all good|i'?m good))/i;
// A question about a visible defect: "why is it printing null?", "should it really hang this long?".
const DEFECT_QUESTION =
  /^why (?:is|are|does|did) (?:it|this|that|the \w+) \w+\?\s+(?:the|our|my|it|its|we)\b[^?]*$|\b(why|how come)\b.*\b(null|undefined|nan|none|empty|blank|error|errors|wrong|fail\w*|crash\w*|hang\w*|deadlock\w*|throws?|raises?|\w+error|exception|leak\w*|zero|twice|duplicated?|missing|broken|negative|still)\b.*\?|\b(is (it|this|that)|should (it|this|that)) (really |even )?(supposed to|meant to|normal|expected|really)\b.*\?/i;
// A count that came out wrong: "i said ten and got seven", "I asked for five names and there are only three".
const COUNT_MISMATCH =
  /\bi (asked for|said|wanted|needed|requested)\b.*\b(got|get|there (are|is|were)|only|you gave|but)\b.*\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)\b/i;
const ALREADY_TRIED =
  /\b(already (tried|did|done|checked|ran)|did that already|tried (that|this|it) already|same (result|error|thing|output|problem) (again|as before)?$|same (result|error|output)\b|\b(same|identical) (\w+ ){0,2}(you gave me|as (before|last time|earlier))\b|\byou (already )?(gave|recommended|suggested|showed|sent|told) (me )?(this|that|it|the same)\b.*\b(before|already|earlier|last (time|week))\b|\balready (seen|read|have) (it|this|that)\b)/i;
const DISBELIEF =
  /^(?:huh|what|wait what|lol what|wtf|um+|uh+|excuse me|seriously|really)?\s*[?!]{2,}\s*$|^(?:bro|dude|man|bruh)\s*[.!?…]*\s*$|^(?:huh\s*\?|wait what|lol what|what even|wtf)|\b(did|do|have) you (even|actually) (read|look|check|try|test|run)\b|^is it (though|really)\?|^(really|seriously|are you sure|you sure)\s*\?\s*$/i;
const SARCASM =
  /\b(oh |wow,? )?(great|wonderful|perfect|fantastic|brilliant|awesome|nice),? (another|yet another|more|one more)\b|\bthanks for nothing\b|\bnot\.?\s*$|^wow[.,!]*\s+(very|so|super|really|truly)\s+(helpful|useful)\b|^oh,? great\b|\b(great|helpful|useful|thanks|perfect|genius)\b[^.!?]*(🙄|😒|🙃)/i;
const NOT_ABOUT_ANSWER =
  /^(?:new (?:thing|question|topic)\s*[:—–-]|switching topics?\b|(?:totally |completely )?(?:unrelated|different topic)\s*[:—–-])|\b(?:i'?m (?:heading out|off for (?:today|the day)|logging off)|talk (?:to you )?tomorrow)\b|\b(wrong (window|chat|tab|thread|person|conversation)|meant for (someone|somebody) else|not for you|ignore (that|my last( message)?))\b|^(hang on|hold on|one sec(ond)?|give me a (sec|second|minute)|brb|afk|be right back)\b|\b(meant for my \w+|sorry,? (my )?(cat|kid|dog) \w+)|^(?:(?:hey|ok|okay|so|quick|random|totally|completely|also|btw|oh)[,\s]+){0,3}(?:unrelated|switching gears|changing gears|new topic|other topic)\b|^(unrelated|completely different thing|different topic|random q(uestion)?|off[- ]topic|totally unrelated|new question|other question|another question|side note|on another note|changing (the )?(topic|subject))\b|^anyway,? (how|what|where|who|when|do|did|can|is|are)\b|\bcan we (switch|change) (topics?|subjects?)\b|^different (thing|question|topic)( now)?\s*[:,]|\b(can|could) we (switch|move|jump|go back|get back|turn) to (the )?\w+( \w+)? (for a (bit|sec|second|minute|moment|while)|now|instead)\b|\b(had to|have to|gotta|need to) (jump|hop|get) on (a|another) call\b|\b(was|were|been) (in|on) (a )?(meeting|call)\b|\b(just walked in|is calling me|(got|have) (a|another) call)\b|\bone sec(ond)?\b[.!]*$|\bhit (enter|send) too (early|soon)\b|\b(just curious|out of curiosity)\b|\bseparate (thing|question)\s*:/i;
const DEFER =
  /^(ok(ay)?,? |sure,? |thanks,? )?(i'?ll|i will|will) (test|try|check|look at|run) (it|this|that)\b.*\b(later|tomorrow|tonight|soon|after)\b|^(i )?(haven'?t|have not|didn'?t get to) (tried|tested|run|ran|checked|looked at|applied|had a chance)\b|\b(haven'?t|have not) (tried|tested|run|checked) (it|this|that|them)? ?yet\b|^not sure yet\b|\b(park (this|it) for now|no rush|still (thinking|deciding)|can'?t (test|try|check) (it )?until|(wait|waiting) for \w+ to)\b|^(thinking|let me think|(i'?ll|i need to|gonna) think (about )?(it|this|that)?)\b[.…!]*\s*$|\b(can'?t|cannot|won'?t be able to) (test|try|check|look|run|do) \w*\s?\w*\s?(right now|yet|today|tonight|this week|until)\b|\b(might|may|will|gonna) (drop off|be offline|lose connection|postpone|push (it|this) back)\b|\b(saving|bookmark(ing|ed)?|keeping) (this|it) for (later|when|next)\b|\bin a (few|couple( of)?) (days|weeks)\b|^not (right )?now\b|\bmaybe (tomorrow|later|next week)\b|\b(will|i'?ll|gonna) (test|try|check|run) (it |this |that )?(once|when|after)\b|\bhold that thought\b|\b(let'?s )?hold off\b/i;

// The same in the other languages (read before any language's own cues): wrong window, deferral,
// "are you sure?", and "why does it print null?".
const NOT_ABOUT_ANSWER_INTL =
  /(^ところで|別件です|(?:ese|este|el) mensaje (?:anterior )?no (?:era|iba) para ti|no era para ti|c'était pas pour toi|(?:war|ist) nicht für dich|不是发给你的|あなた宛てじゃ|me equivoqué de (chat|ventana|conversación)|(mauvaise|mauvais) (fenêtre|onglet|conversation)|je me suis trompée? de (fenêtre|conversation|chat)|falsche(s|n|r)? (fenster|chat|tab)|发错(了)?(窗口|群|人|地方)?|别管(了)?$|(別の|違う)(ウィンドウ|チャット|画面)|(ウィンドウ|チャット)を間違え|誤爆|^(?:(?:oye|bueno|ok|bon|ah|so|na)[,\s]+)?(?:otra cosa|otra pregunta|cambiando de tema|por cierto|espera|andere frage|themenwechsel|moment|au fait|autre (?:sujet|chose|question)|attends)\b|换个(话题|问题)|另外问|话说|^等一下|(明天|回头|晚点|等会儿?|过两天|有空|等我)[^，。,]{0,8}再?(试|看|弄|跑)|^(ちなみに|そういえば|顺便问一下|顺便问|übrigens|d'ailleurs|by the way|btw)[、,，\s]|^我先去|我(再)?(考虑|想想|琢磨)一下|話(は)?変わ|por curiosidad|par curiosité|aus neugier|好奇问一下|別の質問|ちょっと待って)/i;
// "报错消失了", "エラーが出なくなった", "ya no sale el error", "keine Fehler mehr", "plus aucune erreur".
const APPROVING_NEGATION_INTL =
  /((报错|错误|问题|bug|警告|崩溃)(都|也)?(消失|没了|没有了|解决了|不见了)|(终于|已经|再也)不(再)?(报错|出错|崩溃?|卡)了|(エラー|バグ|警告)(が|も|は)?(もう)?(消え|出なくな|なくな)|ya no (sale|aparece|da|hay|salta) (el |ningún |ning[uú]n )?(error|fallo|warning|aviso)|keine? (fehler|warnungen|abstürze) mehr|plus (aucune?|d'|de) ?(erreurs?|soucis?|bugs?|plantages?|problèmes?)|sans (aucune? )?(erreur|souci|problème|bug|plantage)s?\b)/i;
// Praise with an eye-roll or upside-down face: "Bravo, t'as cassé la prod 🙃", "genial 🙄".
const SARCASM_INTL =
  /\b(bravo|génial|super|merci|genial|gracias|perfecto|toll|danke|super)\b[^.!?]*(🙃|🙄|😒)|(すごい|さすが|ありがとう|谢谢|厉害|好棒)[^。！？]*(🙃|🙄|😒)|我(?:真(?:是)?)?谢谢你(?:啊|了|哦|呀|全家)/iu;
const DISBELIEF_INTL =
  /^(are you sure|you sure)\b.*\?|\b(are you sure about that)\b|你确定|真的吗[？?]|本当(に|ですか)[？?]|(¿)?(estás|está) seguro|bist du (dir )?sicher|(tu es|t'es|vous êtes) sûr/i;
const DEFECT_QUESTION_INTL =
  /((为什么|为啥|怎么)[^？?]*(null|undefined|nan|none|空|错|报错|不对|失败|卡|全是|都是|1970)|(なんで|なぜ|どうして)[^？?]*(になって|なってる|出る|表示され|1970|null|none|undefined)|(por qué|porque)[^?]*(undefined|null|nan|error|vac[ií]o|falla)|pourquoi[^?]*(null|undefined|nan|erreur|vide|plante)|(warum|wieso)[^?]*(null|undefined|nan|fehler|leer|abstürzt)|(なぜ|なんで|どうして)[^？?]*(null|undefined|エラー|空|失敗)|(warum|wieso)[^?]*(überall|steht da)[^?]*(undefined|null|nan))[^?？]*[?？]/i;

// A bare yes to something the assistant offered ("yes please", "sure, go ahead", "はい、お願いします",
// "ja bitte"): the user takes the offer; it says nothing about the answer (the writers label it 0).
const ACCEPTS_OFFER =
  /^(?:(?:yes|yeah|yep|yup|ya|sure|ok(?:ay)?|please|pls|plz|go ahead|go for it|do it|please do|do that|why not|はい|ええ|うん|お願いします|お願い|頼みます|頼む|じゃあ|では|sí|si|claro|dale|vale|adelante|por favor|hazlo|oui|ouais|vas-y|allez-y|s'il te plaît|stp|volontiers|ja|gerne|gern|bitte|klar|mach (?:das|ruhig|mal)|leg los|好的?|好啊|可以|行|要|麻烦(?:你)?了|那就(?:麻烦你)?了?|请)(?:[\s,.!、。！，~]+|$|(?<=[\u3040-\u30ff\u4e00-\u9fff])(?=[\u3040-\u30ff\u4e00-\u9fff]))){1,4}$/i;
// A complaint about the user's own surroundings (the office wifi, a meeting-filled day, a late
// train, a tracker that is down) that names nothing of the answer: an aside, not a verdict.
const AMBIENT =
  /\b(wifi|wi-fi|wlan|internet|vpn|jira|slack|zoom|confluence|meetings?|standups?|commute|traffic|weather|power (?:cut|outage)|my (?:laptop battery|kids?)|(?:the|our) office|bahn|zug|réunions?|métro|reuniones|reunión|tráfico|jefe)\b|会議|ミーティング|電車|上司|残業|网络|网速|开会|会议|地铁|堵车|老板|加班|VPN/i;
const ANSWER_REFERENCE =
  /\b(you|your|it|it's|this|that|these|those|the (?:code|script|answer|query|fix|function|command|output|solution|result|config|test|tests)|du|dein\w*|deine|tu|ton|ta|tes|vous|tú|tu|esto|eso|este|ese)\b|你|这个|これ|それ|この|その/i;
// The user reports an HTTP error the answer led to: "404 on that link", "the page gives a 500".
const REPORTED_STATUS =
  /\b(?:40[0134]|50[0234])\b.{0,20}\b(?:on|for|from|at)\b.{0,12}\b(?:link|url|page|endpoint|site)\b|\b(?:link|url|page)\b.{0,20}\b(?:40[0134]|50[0234]|is dead|is broken|goes nowhere)\b/i;
// An exclaimed yes to a result: "omg yes", "hell yes", "YESSS".
const EXCLAIMED_YES =
  /^(?:(?:omg|oh|hell|heck|oh hell|f+|fuck|ahh+),? yes+\b[\s!.🎉🙌😍🥳]*$|yes{3,}\b|yes+!{2,})|\bwhere has (this|that|it) been all my life\b/iu;
// "eh, no need, sync is fine": the user turns down an offer; nothing about the answer.
const DECLINES_OFFER = /^(?:\W*(?:eh|nah|hmm+|nope|no|ah)\W+)?(?:no need|not needed|not necessary)\b/i;

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

// A sticker or reaction as the whole message: "[sticker: cat thumbs up]", "[スタンプ: OK]",
// "Reacted 👍 to your message", a lone "👍". Its picture says the verdict, or nothing.
const STICKER =
  /^\s*[[(（【]\s*(?:sticker|stamp|gif|emoji|スタンプ|动画表情|表情包?|贴纸|이모티콘|스티커|figurinha|autocolante|adesivo|çıkartma|ملصق|стикер|autocollant|pegatina|aufkleber)\s*(?:[:：]\s*([^\]）)】]+)[\]）)】]|[\]）)】]\s*([^\n]+))\s*$|^\s*(?:reacted|réagi|reagiu|ha reagito|reaccionó|hat reagiert|отреагировал\p{L}*(?:\s?\(а\))?|تفاعل\p{L}*)\s+(?:(?:with|com|con|avec|mit|بـ|ب)\s*)?(\S+)\s+(?:to|à|a|на|an|على)(?=\s|$).*$/iu;
const REACTION_POSITIVE =
  /👍|👌|❤️|❤|♥|😍|🥰|😘|🙏|👏|🎉|🥳|💯|🔥|✅|💪|🤩|😊|☺️|🙌|thumbs? ?up|heart|love|ok\b|okay|OK|yes|clap|엄지척|celebrat|party|happy|dance|dancing|bow|high.?five|applau|aplaud|alkış|お辞儀|鼓掌|拍手|절하|춤|跳舞|joinha|pollice|daumen hoch|pulgar|pouce|baş ?parmak|엄지|하트|比心|点赞|大拇指|OK|いいね|ハート|グッド|إبهام|قلب|лайк|класс|сердечк/iu;
const REACTION_NEGATIVE =
  /👎|😡|🤬|😤|💩|🤦|🙄|thumbs? ?down|angry|facepalm|rage|wütend|enojad|arrabbiat|en colère|kızgın|화난|生气|怒|غاضب|злой/iu;

// WeChat's emoji as typed codes: "[强][强]" (thumbs up), "[弱]" (thumbs down), "[疑问]".
const WECHAT_EMOJI = /^(?:\[[\u4e00-\u9fffA-Za-z]{1,4}\]\s*)+$/u;
const WECHAT_MEANING: Record<string, string> = {
  强: '👍',
  赞: '👍',
  OK: '👍',
  握手: '🙏',
  抱拳: '🙏',
  鼓掌: '👏',
  爱心: '❤️',
  玫瑰: '❤️',
  胜利: '🎉',
  弱: '👎',
  怒: '😡',
  发怒: '😡',
};

/** The verdict of a sticker or a lone reaction: its picture's meaning, or null when it is not one. */
export function readReaction(text: string): Signal | null {
  const t = text.trim();
  const sticker = STICKER.exec(t);
  const picture =
    sticker !== null
      ? (sticker[1] ?? sticker[2] ?? sticker[3])
      : WECHAT_EMOJI.test(t)
        ? t
        : /^(?:\p{Extended_Pictographic}|\uFE0F|\u200D|\p{Emoji_Modifier})+$/u.test(t)
          ? t
          : null;
  if (picture === null) return null;
  const meaning = WECHAT_EMOJI.test(picture) ? picture.replace(/\[([^\]]+)\]/g, (_, c: string) => WECHAT_MEANING[c] ?? '') : picture;
  if (REACTION_NEGATIVE.test(meaning)) return { score: -1, cue: `reaction:${picture}` };
  if (REACTION_POSITIVE.test(meaning)) return { score: 1, cue: `reaction:${picture}` };
  return { score: 0, cue: `reaction:${picture}` };
}

// "thanks! wait, it's a table for 6 not 4": a second thought that corrects the answer.
const WAIT_CORRECTION =
  /(?:^|\n|[.!?。！？]\s*)(?:(?:ah|oh|uh|ay|ops|oops|ой|ah non|ah no|ah não)[,\s]+)?(?:(?:no|non|não|nein|нет|hayır|nahi|아니|but|pero|ma|mais|aber|mas|но|ama|lekin|par)[,\s]+)?(?:wait|espera|aspetta|attends|warte|подожди|погоди|bekle|ruko|ruk|잠깐만?|待って|等等|等一下|استنى|لحظة|peraí|pera)\b[,!\s]+(?=[^?？]*(?:\d|\b(?:not|no|non|pas|nicht|kein|не|değil|nahi|nhi|não|nao|more|less|shorter|formal|casual|change|instead|plus|moins|más|menos|mehr|weniger|più|meno|mais)\b|아니|じゃなく|不是|مش|مو))/iu;
// "danke dir!\nach so, die Wohnungsnummer ist 14b nicht 14", "спасибо!\nой стоп, у Димы среда, а не четверг":
// after the first sentence, a value swapped for another ("X not Y", "X, а не Y", "2시 반 아니고 3시").
const STATED_SWAP =
  /(?:[\n.!?。！？]|\b(?:but|pero|ma|mas|aber|mais|ama|lekin)\b)\s*[^\n]*?(?:\s(?:not|nicht|non|não|nao|pas|nahi|değil)\s+(?:the |il |la |el |le |der |die |das |o |a |à |al )?\p{N}|[\p{Lu}\p{N}][\p{L}\p{N}.,:]*,?\s+(?:not|nicht|non|não|nao|pas|nahi|nhi|değil|no)\s+(?:the |il |la |el |le |der |die |das |o |a |à )?[\p{Lu}\p{N}])|\s(?:nahi|değil),\s+\S|\S+,?\s+а не\s+\S|(?<!\p{L})не\s+[\p{L}\p{N}]+(?:\s+[\p{L}\p{N}]+)?,\s*а\s+[\p{L}\p{N}]|,\s*а мне\s+[\p{L}\p{N}]+\s+нуж\p{L}*|\S+\s?(?:아니고|아니라)\s?\S|じゃなくて|ではなく|不是[^，。,]{1,8}(?:是|而是)(?!对|没错|正确)|\n\s*(?:[Oo]h,? )?[Aa]ctually,? (?:make|change|it'?s|it should|use|can you|could you)\b/u;
// "I said Friday", "alors que j'avais dit vendredi", "大阪って言ったけど": the user points back at what was asked.
const SAID_OTHERWISE =
  /\b(?:i (?:said|told you)|i asked (?:you )?(?:for|to)|j'avais dit|je t'avais dit|te dije|te había dicho|ti avevo detto|avevo detto|eu (?:disse|falei)|ich hatte (?:doch )?gesagt|hab(?:e)? ich (?:doch )?gesagt|я же (?:сказал|сказала|говорил|говорила|просил|просила)|dedim ya|demiştim|maine (?:bola|kaha) tha|invece che|en vez de|en lugar de|au lieu de|em vez de|no lugar de|statt|anstatt|yerine|вместо|ki jagah)\b|って言ったけど|って言ったのに|と言ったのに|って言ったじゃん|我说的是|我说了|我要的是|我要去的是|말했잖아|라고 했잖아|قلت لك/iu;
// "merci\nah non c'est dimanche en fait", "ありがとうございます\nあ、すみません21日でした": a second
// message that opens with an "oops" takes the first one back.
const SECOND_THOUGHT =
  /\n\s*(?:oh,? (?:no|crap|shoot|damn|wait)|oops|whoops|ah,? (?:non|no|não)|ay,? no|ops|ой,? (?:нет|стоп)|arre,? (?:nahi|ruk)|actually,? hold on|(?:а,?\s*)?стоп|ah,? (?:mince|zut)|mince|zut|ach nee|ach nein|dur dur|dur bi|لا,? استنى)(?=[\s,!.،]|$)|(?:\n|[…！!]\s*)(?:あ[、,]?\s*(?:すみません|ごめん|違|宛先|日付|時間)|あっ|啊[，,]?\s*(?:不对|等等)|等下|等一下|아[,\s]*(?:잠깐|아니))/iu;
// "Next time …" in the languages read: what follows is a wish for later answers.
const LATER =
  /(?<!\p{L})(?:next time|from now on|in future|going forward|for the next ones?|for future|la prochaine fois|à l'avenir|la próxima|de ahora en adelante|nächstes mal|in zukunft|la prossima volta|d'ora in poi|da próxima|a partir de agora|в след(?:ующий)? раз|впредь|на будущее|в дальнейшем|per il futuro|para o futuro|para el futuro|für die zukunft|pour la suite|ileride|bir dahaki|bundan sonra|agli baar|aage se|künftig|zukünftig|ab jetzt|ab sofort|a partir de (?:mañana|ahora|hoy|amanhã|agora|hoje|demain|maintenant))(?!\p{L})|다음부터|다음부턴|담부터|담부턴|下次|以后|今後|次回|次から|المرة الجاية|المرة القادمة/iu;
// "tşk\nama teyzemle halamı ayrı masalara koymuştuk …": a short thanks, then a "but" on its own line.
const THANKS_THEN_BUT =
  /^\s*\S+(?:\s+\S+){0,3}\s*\n\s*(?:but|ama|pero|ma|mas|aber|mais|но|lekin|لكن|بس)\s+\S+\s+\S+(?![^\n]*[?？]\s*$)|^\s*\S+(?:\s+\S+){0,3}\s*\n\s*(?:근데|でも|但是|不过)/iu;
// "谢谢！不过是周六不是周五", "спасибо! только не в пятницу а в субботу", "obrigada! mas era quinta, não à tarde":
// thanks, a "but", then a date, a number or a "not": a fix of this answer in the same message.
const THANKS =
  '(?:thanks?|thx|ty|thank you|gracias|merci|danke|grazie|obrigad[oa]|valeu|спасибо|спс|teşekkürler|tşk|sağ ?ol|shukriya|شكرا|شكرًا|تسلم|감사|고마워|ありがと|谢谢|多谢)';
const THANKS_BUT = new RegExp(
  `${THANKS}[^\\n]{0,25}?(?:(?<!\\p{L})(?:but|pero|mas|ma|aber|mais|но|только|ama|lekin|par)(?!\\p{L})|بس|لكن|でも|ただ|不过|但是|근데|하지만)`,
  'iu',
);
const THANKS_BUT_FIX = new RegExp(
  `${THANKS_BUT.source}[^?？]*(?:\\d|(?<!\\p{L})(?:not|no|não|nao|non|nicht|pas|не|değil|nahi|nhi)(?!\\p{L})|مو|مش|不是|じゃな|아니)`,
  'iu',
);
// "I didn't get the reminder at all", "Die Erinnerung kam gar nicht", "stokta yok diye iptal ettiler",
// "她说没收到": what the assistant sent or booked did not arrive, was cancelled or refused.
const REPORTED_FAILURE =
  /\b(?:didn'?t|did not|never|hasn'?t|haven'?t)\s+(?:get|got|receive|received)\s+(?:the|my|her|his|their|your|any|a|an)\s+(?:reminder|message|text|sms|e-?mail|mail|notification|invite|invitation|alert|confirmation|package|parcel|order|delivery|call|ticket|money|payment|transfer|link|code)s?\b|\b(?:nothing|it never|they never)\s+(?:came|arrived|showed up|came through|went through)\b|\b(?:never|didn'?t|did not)\s+(?:arrive|arrived|go off|went off|ring|rang|come through|go through)\b|\bkam (?:gar |überhaupt |leider )?nicht\b|\b(?:nie|nicht) angekommen\b|\b(?:nichts|nicht|nie) bekommen\b|\b(?:pas|rien|jamais) reçu\b|\b(?:a été|est) annulée?\b|\b(?:paiement|carte) refusée?\b|\bno (?:me |nos )?(?:ha|han) llegado\b|\bnunca llegó\b|\bno (?:he|hemos) recibido\b|\bcancelaron\b|\bno tienen ninguna reserva\b|\b(?:pago|tarjeta) rechazad[oa]\b|\bnon (?:mi |ci )?(?:è|e) (?:mai )?arrivat\p{L}*|\bnon (?:ho|abbiamo) ricevuto\b|\bmai arrivat\p{L}*|\b(?:dice|è stato|è stata) annullat\p{L}*|\bordine annullat\p{L}*|\b(?:pagamento|carta)\b[^.!?\n]{0,12}\brifiutat\p{L}*|\b(?:não|nao) (?:me )?chegou\b|\b(?:não|nao) recebi\b|\bnunca chegou\b|\bcancelaram\b|\b(?:pagamento|cartão) recusado\b|\b(?:tá|ta|está|estava) fechad[oa]\b|\b(?:closed|shut down|went out of business)\s+(?:down\s+)?(?:like\s+|about\s+|over\s+|almost\s+)?(?:\d+|a|an|two|three|four|five|several|many|a few)\s+(?:years?|months?|weeks?)\s+ago\b|\b(?:is|was|it'?s|has been)\s+permanently closed\b|\b(?:doesn'?t|does not) exist any\s?more\b|\bno longer exists\b|(?<!\p{L})не (?:пришл\p{L}*|получил\p{L}*|дошл\p{L}*)|(?<!\p{L})отменили(?!\p{L})|\biptal (?:ettiler|edilmiş|edildi)\b|\bstokta yok\p{L}*|\b(?:almadık|almadım|ulaşmadı)\b|\b(?:mila|mili|aaya|aayi|pahucha|pahuncha) hi nahi\b|\bcancel ho (?:gaya|gayi|gya)\b|没收到|没有收到|被取消|被拒|届いてない|届いていない|届かなかった|来なかった|鳴らなかった|キャンセルされ|안\s?왔|못\s?받았|취소됐|취소되었|ما وصلني|ما وصلتني|لم يصل|تلغى|انلغى|اتلغى|ما بقاش/iu;
// "nimm die zweite", "حلو، احجز بالتاني", "ilkinden randevu al": the user picks one of the options
// the answer offered, so the answer stands and is built on (a "no, …" first is a correction).
const PICKS_OPTION =
  /^(?!\s*(?:no|nein|non|não|nao|нет|hayır|hayir|nahi|لا|아니|いや|不)(?![\p{L}]))[\s\S]*?(?:\b(?:take|book|get|pick|choose|go with|reserve)\s+(?:the\s+)?(?:first|second|third|last|1st|2nd|3rd)(?:\s+one)?\b|\bnimm\s+(?:die|den|das)\s+(?:erste|zweite|dritte|letzte)\b|\b(?:reserva|pide|elige|coge|toma|compra)\s+(?:en\s+)?(?:el|la)\s+(?:primer[oa]?|segund[oa]|tercer[oa]|últim[oa])\b|\b(?:pega|escolhe|reserva|marca|compra)\s+(?:n?[oa]\s+)?(?:primeir[oa]|segund[oa]|terceir[oa]|últim[oa])\b|\b(?:prendi|prenota|scegli|compra)\s+(?:il|la|lo|l')\s*(?:prim[oa]|second[oa]|terz[oa]|ultim[oa])\b|\b(?:prends|réserve|choisis)\s+(?:le|la|l')\s*(?:premier|première|deuxième|second|seconde|troisième|dernier|dernière)\b|(?<!\p{L})(?:бери|возьми|бронируй|забронируй)\s+(?:перв|втор|трет|последн)\p{L}*|\b(?:ilk|ikinci|üçüncü)(?:inden|ini|isi|i)\s+(?:randevu|rezervasyon|sipariş)?\s*(?:al|ayarla|yap|seç)\b|(?:احجز|خذ|اختار|اطلب)\s*(?:بـ?|ال)?(?:الأول|الاول|التاني|الثاني|التالت|الثالث|أول|تاني)|(?:첫|두|세)\s?번째\s?(?:거|걸|것)?(?:로|으로)?\s?(?:예약|해|주문)|(?:一|二|三|1|2|3)(?:つ目|番目)(?:の\S{0,6})?(?:で|に|を)(?:お願い|予約)|(?:订|选|要|就)\s?(?:第一|第二|第三)(?:个|家|间))/iu;
// "danke für nix", "thanks for nothing", "merci pour rien": thanks said to mean the opposite.
const THANKS_FOR_NOTHING =
  /\b(?:thanks|thank you|thx|ty) for nothing\b|\bdanke für (?:nichts|nix)\b|\bmerci pour rien\b|\bgracias por nada\b|\bobrigad[oa] por nada\b|\bgrazie per niente\b|(?<!\p{L})спасибо за ничего(?!\p{L})/iu;
// Laughter alone: no verdict ("lol", "哈哈哈哈", "ㅋㅋㅋ", "kkkk", "jajaja").
const LAUGHTER = /^\s*(?:lol|lmao|haha+|hehe+|jaja+|jeje+|kkk+|rsrs+|ㅋㅋ+|ㅎㅎ+|哈哈+|www+|ahah+|хаха+|ххх+)[\s!.]*$/iu;
// "ya déjalo, lo hago yo", "됐어 그냥 내가 할게", "boşver, kendim hallederim": the user gives up on the answer.
const GAVE_UP =
  /\b(déjalo|olvídalo|lo hago yo|boşver|kendim hallederim|deixa (pra|para) lá|deixa quieto|eu mesm[oa] faço|lascia (stare|perdere)|faccio (da )?(io|me)|забей|сам[аи]? сделаю|rehne do|main khud|khud kar (lunga|lungi|lenge)|vergiss es|mach(e)? ich selbst|je (le )?(fais|ferai) moi-même|never ?mind,? i'?ll do it|i'?ll do it myself)\b|됐어\s?(그냥|걍)|내가\s?(할게|하지\s?뭐)|انسى (الموضوع|الأمر)|أنا بتصرف|انا بتصرف|算了[，,\s]*我自己|我自己(来|弄)吧|もういい(です)?[、,\s]*自分で/iu;
// "bu arada …", "a proposito …", "кстати, …": an aside opens a new subject.
const BY_THE_WAY =
  /^(?:bu arada|a proposito|tra l'altro|aliás|a propósito|já agora|кстати|بالمناسبة|그나저나|참고로|waise|vaise|aspetta che|wait,? (?:someone|the door|my)|bekle bi)(?=[,\s])/iu;

/** A signal that decides the whole reply, or null to read it clause by clause. */
export function readSignals(text: string, request?: string): Signal | null {
  const t = text.trim();
  const intl = readIntlSignals(t);
  if (intl !== null) return intl;
  if (NOT_ABOUT_ANSWER.test(t)) return { score: 0, cue: 'not about the answer' };
  if (EXCLAIMED_YES.test(t)) return { score: 1, cue: 'exclaimed yes' };
  if (REPORTED_STATUS.test(t)) return { score: -1, cue: 'reported an HTTP error' };
  if (DEFER.test(t)) return { score: 0, cue: 'deferred' };
  if (DISBELIEF.test(t)) return { score: -1, cue: 'disbelief' };
  if (SARCASM.test(t) && !/\bnot (bad|too shabby|wrong)\b/i.test(t)) return { score: -1, cue: 'sarcasm' };
  if (ALREADY_TRIED.test(t)) return { score: -1, cue: 'already tried' };
  if (COUNT_MISMATCH.test(t)) return { score: -1, cue: 'count mismatch' };
  if (DEFECT_QUESTION.test(t)) return { score: -1, cue: 'question exposing a defect' };
  if (request !== undefined && request.trim() !== '') {
    const a = new Set(words(t));
    const b = words(request);
    if (b.length >= 3 && a.size >= 3 && b.filter((w) => a.has(w)).length / b.length >= 0.8) return { score: -1, cue: 'repeated request' };
  }
  if (APPROVING_NEGATION.test(t)) return { score: 1, cue: 'approving negation' };
  return null;
}

/**
 * Whether a complaint is about the user's surroundings, not the answer: it names the office wifi,
 * a meeting, a late train … and nothing of the answer ("you", "it", "the script", 这个, その …).
 */
export function aboutSurroundings(text: string): boolean {
  return AMBIENT.test(text) && !ANSWER_REFERENCE.test(text);
}

/** The signals every language shares (wrong window, "are you sure?", "why … null?"), or null. */
export function readIntlSignals(text: string): Signal | null {
  const reaction = readReaction(text);
  if (reaction !== null) return reaction;
  if (WAIT_CORRECTION.test(text)) return { score: -1, cue: 'correction after wait', hint: restOfLine(text, WAIT_CORRECTION) };
  if (SECOND_THOUGHT.test(text)) return { score: -1, cue: 'second thought', hint: restOfLine(text, SECOND_THOUGHT) };
  if (THANKS_THEN_BUT.test(text))
    return {
      score: -1,
      cue: 'second thought',
      hint:
        text
          .split('\n')
          .slice(1)
          .join(' ')
          .replace(/^\s*\S+\s+/u, '')
          .trim() || null,
    };
  if (LAUGHTER.test(text)) return { score: 0, cue: 'laughter' };
  // "отлично, в след раз пиши в телегу а не смс": a wish for later, not a correction of this answer.
  if (!LATER.test(text) && STATED_SWAP.test(text)) return { score: -1, cue: 'stated swap', hint: sentenceOf(text, STATED_SWAP) };
  if (!LATER.test(text) && SAID_OTHERWISE.test(text)) return { score: -1, cue: 'said otherwise', hint: sentenceOf(text, SAID_OTHERWISE) };
  if (!LATER.test(text) && THANKS_BUT_FIX.test(text)) return { score: -1, cue: 'thanks, then a fix', hint: restOfLine(text, THANKS_BUT) };
  if (THANKS_FOR_NOTHING.test(text)) return { score: -1, cue: 'thanks for nothing' };
  if (REPORTED_FAILURE.test(text)) return { score: -1, cue: 'reported failure' };
  if (PICKS_OPTION.test(text)) return { score: 1, cue: 'builds on' };
  // An eye-roll beside words is sarcasm (91 of 92 such replies over the judge sets are failures).
  if (/🙄|😒/u.test(text) && /\p{L}{2}/u.test(text)) return { score: -1, cue: 'sarcasm' };
  if (GAVE_UP.test(text)) return { score: -1, cue: 'gave up' };
  if (BY_THE_WAY.test(text.trim())) return { score: 0, cue: 'not about the answer' };
  if (ACCEPTS_OFFER.test(text.trim()) || DECLINES_OFFER.test(text.trim())) return { score: 0, cue: 'accepts an offer' };
  if (APPROVING_NEGATION_INTL.test(text)) return { score: 1, cue: 'approving negation' };
  if (NOT_ABOUT_ANSWER_INTL.test(text)) return { score: 0, cue: 'not about the answer' };
  if (DISBELIEF_INTL.test(text)) return { score: -1, cue: 'disbelief' };
  if (SARCASM_INTL.test(text)) return { score: -1, cue: 'sarcasm' };
  if (DEFECT_QUESTION_INTL.test(text)) return { score: -1, cue: 'question exposing a defect' };
  return null;
}
