// Cue lists for the languages a personal assistant on messaging apps hears beyond the first six:
// Korean, Russian, Portuguese, Italian, Turkish, Arabic and Hinglish (Hindi and English in Latin
// letters). Same shape and reading as languages.ts: approving negations read before the
// complaints they contain, acknowledgements and deferrals neutral, praise, complaints, changes
// asked for this answer, wishes for later, and "now also …" after a result that stands. Written
// as people type on phones: no accents ("nao", "calisti"), chat abbreviations ("vlw", "спс",
// "ㄱㅅ", "thnx"). Korean and Arabic attach particles and prefixes to words, so their cues are
// substrings, not words.

import type { Cues } from './types.ts';

export type WorldLang = 'ko' | 'ru' | 'pt' | 'it' | 'tr' | 'ar' | 'hi';

export const WORLD_CUES: Record<WorldLang, Cues> = {
  ko: {
    approve:
      /(문제\s?(없|없어|없네|없습니다)|이대로\s?(좋|괜찮|가)|(오류|에러)(가|는)?\s?(더 이상|이제)?\s?안\s?(나|떠)|수정할\s?(거|게)\s?없)/,
    ack: /^(네|넵|넹|예|응|ㅇㅇ|ㅇㅋ|오케이|오키|알겠|알았|확인)(어요|습니다|어|다|음|요)?[.!~ㅎ\s]*$|(나중에|이따가?|내일)\s?(볼게|확인|해\s?볼게|다시)|생각해\s?(볼게|보고)/,
    negative:
      /(안\s?(돼|되|됐|됨|와|왔|나와|떠|보내|갔)|틀렸|틀린|틀려|잘못|오류|에러|실패|아니(잖아|라고|거든|에요|야)|아닌데|이상해|이상하|엉망|별로|또\s?(안|틀|오류|에러|그러)|왜\s?(이래|그래|또)|짜증|최악|뭐야|뭔데|아직도|여전히|엉뚱|이게\s?뭐|못\s?(했|찾|받|보냈)|말했잖|했잖아|라고\s?했|이라고\s?했|너무\s?(길|많|비싸|늦|짧|작|커)|장난해|어이없|ㅡㅡ|;;|다시\s?해|취소\s?(됐|되었)|아님\?|아니야\?|아닌가\?)/,
    future: /(다음(부터|부턴|에는|엔|번엔|번에는)|앞으로(는)?|이제부터(는)?|담부터|담부턴|담엔)/,
    instruction:
      /(해\s?주세요|해\s?줘|해\s?줄래|주세요|바꿔|고쳐|빼\s?(고|줘|주세요)|넣어|말고|부탁|하지\s?마|좀\s?더|더\s?(짧게|간단|크게|작게)|짧게|으로\s?(해|바꿔|변경)|로\s?(해|바꿔|변경))/,
    positive:
      /(감사|고마워|고맙|최고|완벽|좋아요|좋습니다|좋네|좋다|좋았|좋아|칭찬|짱|대박|잘\s?(됐|되|돼|나왔|했)|성공|굿|훌륭|깔끔|딱이|딱\s?좋|마음에\s?들|맘에\s?들|덕분|해결|작동|ㄱㅅ|ㄳ|👍|❤️|사랑해|천재|센스|잘먹을게|잘 먹을게|자연스럽|오케이)/,
    more: /^(그럼|그러면|이제|그리고|다음은|아\s?그리고)|(도|까지)\s?(부탁|해\s?줘|알려\s?줘|추가|예약|보내|초대)/,
  },
  ru: {
    approve:
      /\b((всё|все) (норм|нормально|в порядке|ок|ok|четко|чётко)|претензий нет|без (ошибок|проблем|замечаний)|больше не (падает|вылетает|глючит|ругается)|ошибок (больше )?нет|менять ничего не надо|оставь так|так и оставь)\b/i,
    ack: /^(ок|окей|ok|ладно|понял|поняла|понятно|хорошо|ясно|угу|ага|принято)[.!)]*$|\b(потом|позже|завтра|вечером) (посмотрю|проверю|гляну|попробую)\b|\bподумаю\b|\bя подумаю\b/i,
    negative:
      /\b(не работает|не то|неправильн\w*|не правильно|ошибк\w*|ошибся|ошиблась|опять|снова|не (получилось|сработало|сработал|сработала|пришло|пришла|пришел|пришёл|отправилось|отправил|отправила|вышло|открывается|грузится|тот|та|те|туда|так)|не завел\w*|не включил\w*|не выключил\w*|отстой|ужас\w*|бред|издеваешься|фигня|ерунда|перепутал\w*|зачем|что за|а толку|ничего не|до сих пор|так и не|я же (просил|просила|сказал|сказала|писал|писала)|слишком|уже (пробовал|пробовала|делал|делала)|спасибо,? конечно|ага,? (конечно|щас)|ну (спасибо|супер|отлично),|вообще не|не туда|^нет\b|^не\b)/i,
    future: /\b(в след(ующий)? раз|впредь|на будущее|теперь всегда|в дальнейшем|всегда)\b/i,
    instruction:
      /\b(пожалуйста|пжл|пж|плиз|сделай|поставь|измени|поменяй|перенеси|убери|добавь|напиши|отправь|пришли|давай лучше|нужно|надо|можешь|можно|лучше|без \w+|покороче|вместо)\b/i,
    positive:
      /\b(спасибо|спасибки|пасиб|спс|благодарю|отлично|супер|блеск|именно так и надо( было)?|именно так|так и надо|то что (надо|нужно)|класс|классно|круто|идеально|работает|получилось|то что (надо|нужно)|здорово|шикарно|огонь|красота|молодец|умница|помогло|лучший|пришло|пришла|всё (супер|отлично|получилось)|good|👍)\b/i,
    more: /^(теперь|а теперь|ещё|и ещё|а ещё|дальше|потом|кстати,? (ещё|добавь))\b|\bтоже (добавь|сделай|напомни|отправь)\b|\b(добавь|пригласи|отправь)\b[^.!?]*\b(ещё|тоже)\b/i,
  },
  pt: {
    approve:
      /\b((não|nao) (precisa|tem que) mudar( nada)?|sem (erros?|problemas?)|(não|nao) (dá|da|deu) mais erro|pode deixar assim|(tá|ta|está) bom assim|nada a (mudar|corrigir|reclamar))\b/i,
    ack: /^(ok|okay|beleza|blz|tá|ta|certo|entendi|combinado|fechado|pode ser|tranquilo|show)[.!]*$|\b(depois|mais tarde|amanhã|amanha) (eu )?(vejo|olho|testo|confiro)\b|\bvou (ver|pensar|conferir)\b|\bdeixa eu (ver|pensar)\b/i,
    negative:
      /\b((não|nao) (funciona|funcionou|deu|é isso|e isso|era isso|foi|chegou|mandou|enviou|veio|aparece|apareceu|consigo|abre|salvou|é o que|era o que)|errad[oa]s?|erro|de novo|outra vez|já (tentei|fiz|falei|disse)|ja (tentei|fiz|falei|disse)|continua (dando|sem|errad[oa])|péssimo|pessimo|horrível|horrivel|nada a ver|que merda|que droga|porcaria|eu (disse|falei|pedi)|(tá|ta) errad[oa]|ainda (não|nao)|nem (funcionou|chegou)|muito (long[oa]|car[oa]|grande)|poxa|aff|afe|sério\?|serio\?|^(não|nao)\b)/i,
    future:
      /\b(para a próxima|pra próxima|da próxima( vez)?|da proxima( vez)?|na próxima|na proxima|a partir de agora|daqui (pra|para a) frente|no futuro|sempre)\b/i,
    instruction:
      /\b(por favor|pfv|pf|pode (mudar|trocar|colocar|fazer|mandar|tirar|deixar|marcar|reservar|enviar)|muda|mude|troca|troque|coloca|coloque|tira|tire|manda|mande|faz|faça|faca|deixa|deixe|marca|marque|prefiro|sem \w+|mais (curt[oa]|simples|barat[oa])|em vez de|ao invés de|ao inves de|tem que|precisa)\b/i,
    positive:
      /\b(obrigad[oa]|brigad[oa]|valeu|vlw|perfeit[oa]|ótim[oa]|otim[oa]|fixe|obrigadão|és o maior|boa(?=\s*!)|excelente|maravilh\w*|show( de bola)?|top|massa|funcionou|deu certo|certinho|adorei|amei|incrível|incrivel|muito bom|muito boa|salvou|arrasou|mandou bem|ficou (mesmo |muito )?(ótimo|otimo|lindo|perfeito|show|top|bom|boa|bem)|tudo certo|beleza|chegou|👍)\b/i,
    more: /^(agora|e agora|também|tambem|e também|depois|aproveita e|ah,? e)\b|\b(também|tambem|tbm)\s*[.!]*$/i,
  },
  it: {
    approve:
      /\b((nessun|nessuno) (problema|errore)|niente errori|va bene così|lascia così|lascialo così|non (da|dà) più errori|non ci sono più errori|tutto a posto così)\b/i,
    ack: /^(ok|va bene|d'accordo|capito|ricevuto|vabbè|vabbe|ok grazie|ci sta)[.!]*$|\b(dopo|più tardi|piu tardi|domani|stasera) (ci )?(guardo|vedo|controllo|provo)\b|\bci penso\b|\bci devo pensare\b/i,
    negative:
      /\b(peccato che|sono ancora|non (funziona|va|è quello|e quello|era quello|ha funzionato|è arrivat\w*|e arrivat\w*|c'entra|si apre|parte|è partit\w*|mi serve)|sbagliat\w*|errore|di nuovo|ancora (non|niente|sbagliat\w*)|già (provato|fatto|detto)|gia (provato|fatto|detto)|ho detto|avevo detto|ti avevo|niente da fare|fa schifo|pessim\w*|assurdo|ma dai|ma che|che cavolo|che palle|macché|macche|troppo (lung\w*|car\w*|tardi|presto)|mica|(bravo|complimenti),? (proprio|davvero)|^no\b)/i,
    future: /\b(la prossima volta|d'ora in poi|in futuro|da ora in poi|da adesso in poi|sempre)\b/i,
    instruction:
      /\b(per favore|per piacere|perfavore|xfavore|puoi|potresti|cambia|metti|togli|sposta|aggiungi|scrivi|manda|mandalo|fai|fallo|invece di|senza \w+|più (corto|breve|semplice)|piu (corto|breve|semplice)|meglio|bisogna|serve)\b/i,
    positive:
      /\b(grazie|grz|carin[oaie]|perfett[oa]|ottim[oa]|fantastic[oa]|bravo|brava|bravissim[oa]|benissimo|bell[ie]|come l[ie] volevo|funziona|ha funzionato|top|grande|stupend[oa]|eccellente|mitic[oa]|splendid[oa]|tutto ok|tutto a posto|sei un mito|gentilissim\w*|comodissimo|arrivat[oa]|accettat[oa]|🙌|👍)\b/i,
    more: /^(adesso|ora|poi|e poi|anche|inoltre|già che ci sei)\b|\b(aggiungi|invita|manda)\b[^.!?]*\banche\b/i,
  },
  tr: {
    approve: /\b(sorun yok|hata (yok|kalmadı|kalmadi|vermiyor)|böyle kalsın|boyle kalsin|aynen böyle|değiştirme|degistirme)\b/i,
    ack: /^(tamam|tmm|ok|okey|anladım|anladim|peki|olur|tamamdır)[.!]*$|\b(sonra|yarın|yarin|akşam|aksam) (bakarım|bakarim|kontrol ederim|denerim)\b|\bdüşüneyim\b|\bdusuneyim\b/i,
    negative:
      /\b(olmadı|olmadi|çalışmıyor|calismiyor|yanlış|yanlis|hata|yine|tekrar|hâlâ|hala|değil|degil|saçma|sacma|berbat|rezalet|ne alaka|alakası yok|alakasi yok|zaten (denedim|yaptım|yaptim|söyledim|soyledim)|dedim|demiştim|demistim|olmamış|olmamis|gelmedi|gitmedi|gönderilmedi|gonderilmedi|bozuk|çok (uzun|pahalı|geç)|cok (uzun|pahali|gec)|^hayır|^hayir)\b/i,
    future: /\b(bir dahaki sefere|bundan sonra|ileride|artık hep|her zaman)\b/i,
    instruction:
      /\b(lütfen|lutfen|yapar mısın|yapar misin|yapabilir misin|değiştir|degistir|koy|kaldır|kaldir|ekle|yaz|gönder|gonder|olsun|şeklinde|seklinde|yerine|daha (kısa|kisa|basit)|kısalt|kisalt|olmadan)\b/i,
    positive:
      /\b(teşekkür\w*|tesekkur\w*|teşekkürler|sağ ?ol|sag ?ol|sağolun|eyvallah|süpersin|süper|super|harika|sevindi|bayıldı|tşk|tatlı olmuş|tatlı olmuşlar|mükemmel|mukemmel|çok iyi|cok iyi|tamamdır|oldu|çalıştı|calisti|çalışıyor|calisiyor|bayıldım|bayildim|efsane|helal|eline sağlık|eline saglik|şahane|sahane|güzel|guzel|👍)\b/i,
    more: /^(şimdi|simdi|bir de|ayrıca|ayrica|sonra)\b|\b\S+(y?[ıiuü]|y?[ae])\s+(de|da) (ekle|davet et|gönder|gonder)\b/i,
  },
  ar: {
    approve: /(ما في مشكلة|مافي مشكلة|لا توجد مشكلة|ما فيه مشكلة|مفيش مشكلة|خليه كذا|خليها كذا|خليها كدا|كذا تمام|بدون أخطاء|بدون اخطاء)/,
    ack: /^(تمام|اوكي|أوكي|اوك|ok|طيب|ماشي|حاضر|فهمت|تم|ان شاء الله|إن شاء الله)[.!]*$|(^|\s)(بشوف|بعدين بشوف|لاحقا|لاحقاً|بفكر|أفكر فيها|افكر فيها)(\s|$)/,
    negative:
      /(مش هيك|الغيه|ألغيه|طويل مره|طويل جدا|ما انسجل|ما تسجل|ما انحجز|غلط|خطأ|خطا|مش شغال|ما اشتغل|مااشتغل|ما نفع|مانفع|مو صح|مش صح|ليش|لماذا|ما وصل|ماوصل|موصلش|لم يصل|لم يعمل|لا يعمل|مرة ثانية|مرة تانية|مرة أخرى|برضو|بردو|ما زال|مازال|لسه|لسا|قلت لك|قلتلك|مو هذا|مش هذا|مش ده|سيء|سيئ|زفت|فاشل|طويل جدا|طويل جداً|^لا\b|^لأ)/,
    future: /(المرة الجاية|المرة القادمة|المرة الجاي|المره الجايه|بعد كذا|من الآن|من الان|دايما|دائما|دائماً|مستقبلا|مستقبلاً)/,
    instruction:
      /(لو سمحت|من فضلك|رجاء|رجاءً|ممكن|(?:^|\s)خلي(?:ها|ه)?(?=\s|$)|غير|غيّر|بدل|حط|احذف|شيل|ضيف|أضف|اضف|اكتب|ابعت|ارسل|أرسل|بدون|أقصر|اقصر|اختصر|بدلا من|بدلاً من)/,
    positive:
      /(شكرا|شكراً|مشكور|تسلم|يسلمو|ممتاز|رائع|تمام|حلو|جميل|زين|مية مية|اشتغل|نجح|ظبط|ضبط|يعطيك العافية|بارك الله|أحسنت|احسنت|عظيم|مبدع|الله يسعدك|وصل|وصلت|👍)/,
    more: /^(الحين|الآن|الان|هلق|وبعدين|كمان|وكمان|وأيضا|وايضا)|(ضيف|أضف|اضف|ابعت|ارسل)[^.!؟]*(كمان|أيضا|ايضا)/,
  },
  hi: {
    approve:
      /\b(koi (problem|dikkat|issue|tension) nahi|sab (theek|thik|sahi|set) hai|aise hi (theek|rehne do|rakho)|ab (error|problem) nahi|badalne ki zarurat nahi)\b/i,
    ack: /^(ok|okk|okay|theek hai|thik hai|thik h|theek h|acha|achha|accha|hmm+|haan|ha|chalo|samajh gaya|samajh gayi|samjha)[.!]*$|\b(baad mein|kal|shaam ko) (dekh|check)\w*\b|\bdekhta hoon\b|\bdekhti hoon\b|\bsochta hoon\b|\bsochti hoon\b/i,
    negative:
      /\b(galat|galti|nahi (hua|hui|chala|chal raha|aaya|aayi|mila|mili|gaya|gayi|gya|ho raha|ho rahi|ho paya|bheja|pahucha|pahuncha)|nhi (hua|hui|chala|aaya|aayi|mila|gaya|gya)|kuch nahi hua|phir se|fir se|dobara|abhi bhi|ab bhi|wahi (galti|problem|error)|maine (bola|kaha) tha|bola tha|kaha tha|bakwaas|bakwas|bekaar|bekar|ghatiya|kya yaar|kya hai ye|ye kya|yeh kya|wrong|bahut (lamba|mehenga|mehnga|slow)|^nahi\b|^nhi\b|^na\b)/i,
    future: /\b(agli baar|next time|aage se|ab se|hamesha)\b/i,
    instruction:
      /\b(please|pls|plz|kar do|kardo|karo|kar de|karde|bhej do|bhejo|daal do|hata do|change kar|badal do|badlo|chahiye|rakh do|likh do|mat karo|nahi chahiye|instead)\b/i,
    positive:
      /\b(thanks|thank you|thank u|thnx|thx|shukriya|dhanyavaad|dhanyawad|badhiya|badiya|mast|zabardast|kamaal|kamal|bahut (badhiya|accha|achha|acha|sahi|badiya)|sahi hai|yahi chahiye tha|bilkul sahi|perfect|awesome|ho gaya|hogaya|ho gya|chal gaya|kaam kar (gaya|raha)|jhakaas|superb|maza aa gaya|mazaa aa gaya|gazab|ekdum sahi|mil gaya|aa gaya|pahunch gaya|first class|ekdum mast|👍)\b/i,
    more: /^(ab|aur|ek aur|aur haan|saath mein|aur ek)\b|\b(bhi)\s+(add|bhej|invite|daal)/i,
  },
};

// Words that say a Latin-letter reply is in one of these languages (the first six are in
// languages.ts); function words and chat words each language uses and the others do not.
export const WORLD_WORDS: Record<'pt' | 'it' | 'tr' | 'hi', ReadonlySet<string>> = {
  pt: new Set(
    'não nao você voce vc obrigado obrigada brigado brigada brigadão valeu vlw tá ta está estou isso isto esse essa aqui muito também tambem agora depois já ja né pra pro com sem mais mesmo então entao ainda foi era tem tenho fiz fez deu ficou certo errado perfeito ótimo otimo beleza amanhã amanha hoje ontem meu minha seu sua dele dela um uma uns umas nós eles elas aí ai cadê cade gente tudo nada amei adorei mandou pediu tira deixa só nem ninguém cara mano nossa recebeu cá querida querido telemóvel boa marca chegou cheguei perdi tocou do da dos das nos nas ao aos às é ele ela vou vai fica kkkk kkk'.split(
      ' ',
    ),
  ),
  it: new Set(
    "non è e' il lo gli un una uno che di del della dei delle per con senza ma più piu anche già gia ancora sono sei ho hai ha abbiamo fatto grazie perfetto ottimo bravo brava va bene allora adesso ora poi domani oggi ieri mio mia tuo tua questo questa quello quella niente tutto qui qua ciao cosa come perché perche però pero invece sbagliato funziona".split(
      ' ',
    ),
  ),
  tr: new Set(
    'bir bu şu ve ile için icin ama de da mi mı mu mü ne çok cok daha değil degil var yok oldu olmadı olmadi tamam teşekkürler tesekkurler sağol sagol süper süpersin sağ ol lütfen lutfen yine hala hâlâ ben sen biz siz onu bunu şimdi simdi yarın yarin bugün bugun dün dun neden niye abi abla hocam gibi kadar sonra önce once artık artik'.split(
      ' ',
    ),
  ),
  hi: new Set(
    'hai hain nahi nhi nahin kya kyu kyun yaar yar bhai toh to bhi kar karo kardo ho gaya gya gayi mein me ka ki ke ko se aur accha acha achha theek thik kal abhi mujhe mera meri hum tum aap bahut sahi galat bola kaha chahiye dekh dekho wala wali haan na ye yeh wo woh kuch sab ab phir fir jaldi matlab bas arre arey bilkul ekdum'.split(
      ' ',
    ),
  ),
};
export const WORLD_LETTERS: Record<'pt' | 'it' | 'tr' | 'hi', RegExp> = {
  pt: /[ãõç]|ção|ões|nh|lh/gu,
  it: /[àèìòù](?=\s|$|[.,!?])/gu,
  tr: /[ğışİ]/gu,
  hi: /$^/gu,
};
