// What a personal assistant's tools answer: browser page text (captcha and login walls, sold-out
// and not-found pages, a booking confirmed), and the bodies of calendar, mail, messaging, payment
// and shop APIs beyond a plain HTTP status (services.ts reads those): a status field that says
// the thing was declined, cancelled or failed, or that it was sent, booked or paid; a
// confirmation the user declined; partial success ("3 of 5 sent"); a search that found nothing.
// Page text comes in the user's language, so the words are listed in the languages the judge reads.

import { finding, type ToolFinding, type ToolParser } from './types.ts';

// A wall between the assistant and the page: the task did not happen.
const CAPTCHA =
  /\b(captcha|recaptcha|hcaptcha|verify (that )?you(?:'re| are) (a )?human|are you a robot|i'?m not a robot|unusual traffic|security check|checking your browser|press (and|&) hold|prove you'?re human|bot detection|access denied|request blocked|attention required)\b|confirme que você não é um robô|滑块|完成验证|拖动到最右|画像認証|보안문자|non sono un robot|je ne suis pas un robot|no soy un robot|ich bin kein roboter|robot değilim|я не робот|로봇이 아닙니다|ロボットではありません|人机验证|我不是机器人/i;
// A sign-in form as the page: its title alone on the first line, or a password field beside a sign-in button.
const SIGN_IN_TITLE =
  /^\s*(sign in|log ?in|anmelden|se connecter|connexion|iniciar sesión|accedi|entrar|giriş yap|войти|вход|로그인|ログイン|登录)\s*$/im;
const SIGN_IN_LINE =
  /^\s*\[?(sign in|log ?in|anmelden|se connecter|connexion|iniciar sesión|accedi|entrar|giriş yap|войти|로그인|ログイン|登录)\b/im;
const PASSWORD_FIELD = /^\s*(password|passwort|mot de passe|contraseña|senha|şifre|пароль|비밀번호|パスワード|密码|كلمة المرور)\s*$/im;
const COOKIE_WALL =
  /\bcookies?\b[\s\S]*^\s*\[?\s*(accept( all)?|aceptar( y cerrar| todo)?|alle akzeptieren|akzeptieren|tout accepter|accepter|accetta( tutto)?|aceitar( todos)?|kabul et|принять)\b/im;
const BUSY_PAGE =
  /アクセスが集中|混み合って|\btoo many (visitors|people|users)\b|\b(you are|you're) (now )?in (the|a) (queue|waiting room)\b|\bhigh (traffic|demand)\b[^.\n]*\btry\b|접속자가 많아|서버 접속이 원활하지/i;
const ERROR_PAGE =
  /<title>\s*([45]\d\d)\b|^\s*<h1>\s*([45]\d\d)\b|^\s*([45]\d\d) (?:Bad Gateway|Not Found|Service Unavailable|Gateway Time-?out|Internal Server Error|Forbidden|Too Many Requests)\s*$/im;
const BOUNCE =
  /\b(delivery status notification \(failure\)|mail delivery (failed|subsystem)|undeliverable:|address not found|wasn'?t delivered to|could not be delivered|message blocked)\b/i;
const LOGIN_WALL =
  /sitzung ist abgelaufen|melden sie sich erneut an|session expirée|sesión ha caducado|sessão expirou|sessione scaduta|oturumunuz sona erdi|сеанс истёк|세션이 만료|セッションの有効期限|会话已过期|\b(sign in to (continue|see|view|book|check ?out|your account)|log ?in to (continue|see|view|book|check ?out)|you must (be )?(signed|logged) in|please (sign|log) ?in\b|session (has )?expired|your session timed out|login required|authentication required)\b|faça login para continuar|accedi per continuare|connectez-vous pour continuer|inicia sesión para continuar|melden sie sich an, um|devam etmek için giriş yapın|войдите,? чтобы продолжить|로그인이 필요합니다|ログインしてください|请登录后/i;
const SOLD_OUT =
  /(?<![\p{L}\p{N}])(out[ _]of[ _]stock|sold[ _]out|no (available )?(times|slots|dates|appointments) (available|left)|currently unavailable|no longer available|not available in your (area|region|country)|no (tables|rooms|seats|slots|tickets) (are )?available|fully booked|no availability|(?:the )?minimum order (?:is|value is|amount is)|below the minimum order|mindestbestellwert (?:von|ist|nicht erreicht)|pedido mínimo (?:es|é|de))(?![\p{L}\p{N}])|esaurit[oa]|non disponibile|ausverkauft|nicht (mehr )?verfügbar|agotado|sin existencias|no disponible|esgotad[oa]|indisponível|sem estoque|épuisé|rupture de stock|indisponible|complet\b|tükendi|stokta yok|нет в наличии|распродано|품절|재고 없음|매진|이미 판매|판매 완료|在庫切れ|品切れ|売り切れ|满房|缺货|售罄|已售完|غير متوفر|نفدت الكمية|نفذت الكمية|예약 가능한 (시간|날짜)이 없|空席がありません|没有可预约|nessuna disponibilità|keine (freien )?(termine|plätze)|aucune disponibilité|sin disponibilidad|sem disponibilidade|müsait (yer|saat) yok|нет свободных/iu;
const NOT_FOUND_PAGE =
  /^\s*(404\b|page not found|this page (isn'?t|is not) available|we can'?t find (that|the) page|the page you (were looking for|requested) (doesn'?t|does not|could not)|pagina non trovata|página não encontrada|página no encontrada|page introuvable|seite nicht gefunden|sayfa bulunamadı|страница не найдена|페이지를 찾을 수 없습니다|ページが見つかりません|页面不存在)/im;
const PAYMENT_DECLINED =
  /\b(card (was |has been )?declined|payment (was |has been )?(declined|failed|refused|rejected)|insufficient funds|do_not_honor|card_declined|transaction (was )?(declined|failed)|pagamento (recusado|rifiutato|negato)|zahlung (abgelehnt|fehlgeschlagen)|paiement (refusé|échoué)|pago (rechazado|denegado)|ödeme (reddedildi|başarısız)|платёж отклонён|платеж отклонен|결제(가)? (거절|실패)|決済(が)?(拒否|失敗)|支付失败|付款失败)\b/i;
// The user said no to the assistant's confirmation: nothing was done.
// The thing was not done: "Your application has not been submitted.", GOV.UK's "There is a problem".
const NOT_DONE =
  /^\s*please (?:select|enter|choose|fill in|provide)\b|^\s*sorry,? (?:we|you) (?:can only|can'?t|cannot|are unable|were unable|could not|couldn'?t)\b|\b(?:has not been|have not been|was not|wasn'?t|hasn'?t been|could not be|couldn'?t be) (?:submitted|sent|saved|booked|processed|completed|created|placed|delivered|scheduled)\b|^\s*there (?:is|was) a problem\s*$/im;
const USER_DECLINED =
  /\b((user|you) (tapped|pressed|clicked|selected|chose)\s*:?\s*["[]?(cancel|no|decline|deny|abbrechen|annuler|cancelar|annulla|iptal)|(transfer|payment|message|e-?mail|order|booking) (was )?not (sent|made|placed|completed|booked)|no (transfer|payment|message|e-?mail|order|booking) was (sent|made|placed|booked)|user[_ ]declined|declined[_ ]by[_ ](the[_ ])?user|cancell?ed[_ ]by[_ ](the[_ ])?user|"executed"\s*:\s*false|user (cancell?ed|denied|rejected|aborted)|"confirmed"\s*:\s*false|"approved"\s*:\s*false|confirmation (was )?(declined|denied|rejected)|action (was )?(cancell?ed|aborted)|user chose not to|user said no|not confirmed by (the )?user|permission denied by user)\b/i;
// "3 of 5 sent", "sent to 2/4 recipients", {"sent": 3, "failed": 2}.
const PARTIAL =
  /\b(\d+) (?:of|out of|\/) (\d+) (?:\w+ ){0,2}(?:sent|delivered|created|added|updated|booked|invited|uploaded|imported|saved|succeeded|processed|completed)\b|\b(?:sent|delivered|created|added|updated|invited|uploaded|imported|saved|succeeded|processed) (?:to )?(\d+) (?:of|out of|\/) (\d+)\b|\b(\d+)\s*\/\s*(\d+) (?:\w+ ){0,2}(?:sent|delivered|created|added|updated|booked|invited|uploaded|imported|saved|succeeded|processed|completed)\b|\bpartial(?:ly)? (?:success|succeeded|completed|failure)\b|"partial(?:_success|_failure)?"\s*:\s*true/i;
const FAILED_COUNT = /"(?:failed|failures|failed_count|errors?_count|undelivered|rejected)"\s*:\s*([1-9]\d*)/i;
// A status field of a calendar, mail, messaging, payment or shop API.
const STATUS_FAILED =
  /"(?:status|state|result|outcome|delivery_status|payment_status|esito|resultado|ergebnis|résultat|sonuc|sonuç)"\s*:\s*"(partially_[a-z_]+|partial|unavailable|offline|requires_action|requires_confirmation|incomplete|ko|nok|erro|errore|fehler|erreur|hata|ошибка|falha|fallido|fallo|échec|başarısız|declined|denied|rejected|cancell?ed|failed|failure|error|undelivered|undeliverable|bounced|expired|refused|invalid|requires_payment_method|payment_failed|not_sent|[a-z_]*not_delivered|blocked|conflict)"/i;
const STATUS_DONE =
  /"(?:[a-z_]*status|state|result|outcome|value)"\s*:\s*"((?![a-z_]*(?:not|un|non)_)[a-z_]*(?:confirmed|booked|reserved|sent|delivered|queued|scheduled|accepted|succeeded|success|paid|completed|created|placed|shipped|rescheduled)|complete|ok|done|active|tentative|read|locked|unlocked|on|off|heat|heating|cool|cooling|playing|armed|disarmed)"|"labelIds"\s*:\s*\[[^\]]*"SENT"|"(?:ok|success)"\s*:\s*(?:true|\{)/i;
// A created thing's body: an object that names its id and reports no error (a task, an event, a message).
const CREATED =
  /^\s*\{[\s\S]*"(?:id|[a-z]+_id|[a-z]+Id|ts|wamid)"\s*:|"access_token"\s*:\s*"|"(?:successful|succeeded|sent|delivered)[a-z_]*"\s*:\s*\[\s*"/i;
const SEARCH_RESULTS =
  /^\s*(?:about |ungefähr |environ |aproximadamente |circa |yaklaşık |около )?[\d.,\s]+ (?:results|ergebnisse|résultats|resultados|risultati|sonuç)\b|共\s*\d+\s*(?:家|条|个|件)|検索結果\s*\d+|\d+\s*件(?:の|が)?(?:結果|ヒット)|검색 결과\s*\d+/im;
const STATUS_PAGE =
  /\ball systems operational\b|\bno (?:known )?issues\b[\s\S]*\bno issues\b|alle systeme (?:funktionieren|betriebsbereit)|tous les systèmes sont opérationnels/i;
const LISTING = /^\s*\[\s*\{[^\]]*?\}\s*,\s*\{|"\w+"\s*:\s*\[\s*\{[^\]]*?\}\s*,\s*\{/;
const BODY_ERROR =
  /"(?:error|errors|erreurs|errores|fehler|errori|erros|hatalar|ошибки)"\s*:\s*[[{"]|"(?:valid|valido|válido|valide|gültig|ok|success)"\s*:\s*false/i;
const DID_YOU_MEAN =
  /"did_?you_?mean"\s*:\s*"[^"]+"|\b(?:did you mean|você quis dizer|quisiste decir|meinten sie|vouliez-vous dire|forse cercavi|bunu mu demek istediniz|возможно,? вы имели в виду)\b\s*:?\s*[^\n"?]+\??/i;
const CONFIRMED_PAGE =
  /(?<![\p{L}\p{N}])(gracias por tu (pedido|compra|reserva)|vielen dank für ihre? (buchung|bestellung)|merci pour votre (commande|réservation)|grazie per (il tuo ordine|la prenotazione)|obrigad[oa] pel[oa] (sua )?(compra|pedido|reserva)|siparişiniz (alındı|onaylandı)|спасибо за (заказ|бронирование)|booking (is )?confirmed|reservation (is )?confirmed|your (booking|reservation|order|appointment|table) (is|has been) (confirmed|booked|placed|reserved)|order (placed|confirmed)|thank you for your (order|booking|purchase|reservation)|payment (successful|received|complete)|confirmation (number|code|#)\s*:?\s*\w+)(?![\p{L}\p{N}])|prenotazione confermata|reserva confirmada|réservation confirmée|buchung bestätigt|rezervasyonunuz onaylandı|бронирование подтверждено|예약이 (완료|확정)되었습니다|予約が(完了|確定)しました|(il tuo|la tua) (ordine|prenotazione)[^.\n]{0,30} (è stat[oa]) (inviat[oa]|confermat[oa]|ricevut[oa])|seu pedido[^.\n]{0,30} foi (confirmado|enviado|recebido)|ihre (bestellung|buchung)[^.\n]{0,30} wurde (bestätigt|versendet|aufgegeben)|votre (commande|réservation)[^.\n]{0,30} a été (confirmée|envoyée|enregistrée)|tu (pedido|reserva)[^.\n]{0,30} (ha sido|fue) (confirmad[oa]|enviad[oa])|ваш (заказ|бронь)[^.\n]{0,30} (подтвержден|отправлен|оформлен)|预订成功|预约成功|주문이 완료|ご注文ありがとうございます|ご予約ありがとうございます|感谢您的订单/iu;
// Asked to find something, found nothing: information, not a failure of the search itself.
const NO_RESULTS =
  /"count"\s*:\s*0\b|^\s*(no exact matches|no \w+(?: \w+)? found\b|0 \w+(?: \w+)? found\b|nenhum resultado|ningún resultado|nessun risultato|keine ergebnisse|aucun résultat|sonuç bulunamadı|ничего не найдено|검색 결과가 없습니다|見つかりませんでした|没有找到|no (results|matches|events|messages|emails|items|flights|trains|hotels|restaurants|products|contacts|files) (found|match|for)|0 results|nothing (found|matched)|your search (returned|did not match) no)|"(?:items|results?|events|messages|value|data|hits|records|files|contacts|orders)"\s*:\s*\[\s*\]|"resultSizeEstimate"\s*:\s*0\b|"total(?:_?count|Results|_results)?"\s*:\s*0\b/im;
// Twilio and similar put the HTTP status in the body: {"code": 21211, "message": …, "status": 400}.
const BODY_STATUS = /"(?:status|statut|estado|stato|code)"\s*:\s*([45]\d\d)\b/;

// A draft shown before sending: "Preview (not sent)", "Aperçu (non envoyé)".
const PREVIEW =
  /^\s*(preview|draft|aperçu|brouillon|vista previa|borrador|vorschau|entwurf|anteprima|bozza|pré-visualização|rascunho|önizleme|taslak|предпросмотр|черновик|미리보기|プレビュー|预览)\b[^\n]*\((not sent|not executed|not run|not applied|not saved yet|not published|non envoyé|non publié|no enviado|no publicado|nicht gesendet|nicht veröffentlicht|non inviato|non pubblicato|não enviado|não publicado|gönderilmedi|yayınlanmadı|не отправлено|не опубликовано)\)/im;

// A page that says it failed, in the languages the judge reads (the English words are the shell reader's).
const PAGE_FAILED =
  /(?<![\p{L}\p{N}])(erreur|fehler|errore|erro|hata(?: kodu)?|ошибка|refusée?|rechazad[oa]|abgelehnt|rifiutat[oa]|recusad[oa]|reddedildi|отклон[её]н\w*|échoué|fallid[oa]|fehlgeschlagen|non riuscit[oa]|falhou|başarısız|gerçekleştirilemedi|obligatoire|obligatorio|pflichtfeld|obbligatorio|obrigatório|zorunlu|обязательн\w*|is required|are required|please fix|ausgebucht|sin plazas|complet)(?![\p{L}\p{N}])|오류|실패|거절|필수|로그인이 필요|エラー|失敗|拒否|満席|必須|错误|失败|拒绝|已无余票|必填|خطأ|فشل|مرفوض|انتهت صلاحية/iu;
// A page that says it worked ("Reservierung erfolgreich", "Pedido confirmado!", "Votre rendez-vous est confirmé").
const PAGE_DONE =
  /(?<![\p{L}\p{N}])(erfolgreich|reservad[oa]|quedó reservad[oa]|reservée?|reserviert|prenotat[oa]|rezerve edildi|забронирован\w*|confirmad[oa]|confirmée?|confermat[oa]|onaylandı|подтвержд[её]н\w*|hinzugefügt|ajoutée?|añadid[oa]|aggiunt[oa]|adicionad[oa]|eklendi|добавлен\w*|successfully|confirmed|added to (?:your )?(?:cart|basket|calendar))(?![\p{L}\p{N}])|완료되었습니다|完了しました|成功|تم بنجاح/iu;

/** Lines of a page that are not its consent banner. */
function contentLines(text: string): number {
  return text
    .split('\n')
    .filter(
      (l) =>
        l.trim() !== '' && !/cookie|consent|privacy|partners?\b|accept|reject|manage|preferences|settings|personal data|ads?\b/i.test(l),
    ).length;
}

const walls: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  if (SIGN_IN_TITLE.test(text.split('\n')[0] ?? '') || (PASSWORD_FIELD.test(text) && SIGN_IN_LINE.test(text)))
    out.push(finding(-1, 'page:sign-in form'));
  // A consent banner alone hides the page; a banner above the page's content does not.
  if (COOKIE_WALL.test(text) && contentLines(text) < 3) out.push(finding(-1, 'page:cookie wall'));
  if (BUSY_PAGE.test(text)) out.push(finding(-1, 'page:busy'));
  const errorPage = ERROR_PAGE.exec(text);
  if (errorPage !== null) out.push(finding(-1, `page:${errorPage[1] ?? errorPage[2] ?? errorPage[3]}`));
  if (BOUNCE.test(text)) out.push(finding(-1, 'mail bounced'));
  if (out.length === 0 && !/^\s*[{[]/.test(text)) {
    if (PAGE_FAILED.test(text)) out.push(finding(-1, `page:${PAGE_FAILED.exec(text)![0]}`));
    else if (PAGE_DONE.test(text)) out.push(finding(1, `page:${PAGE_DONE.exec(text)![0]}`));
  }
  if (CAPTCHA.test(text)) out.push(finding(-1, 'page:captcha wall'));
  if (LOGIN_WALL.test(text)) out.push(finding(-1, 'page:login wall'));
  if (SOLD_OUT.test(text)) out.push(finding(-1, 'sold out'));
  if (NOT_FOUND_PAGE.test(text)) out.push(finding(-1, 'page:not found'));
  if (PAYMENT_DECLINED.test(text)) out.push(finding(-1, 'payment declined'));
  return out;
};

const outcomes: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  if (USER_DECLINED.test(text)) out.push(finding(-1, 'confirmation declined'));
  else if (NOT_DONE.test(text)) out.push(finding(-1, 'not done'));
  // The last count that is not a progress line ("Waiting for … 2 of 3 updated replicas are available...").
  const counted = text.split('\n').filter((l) => !/(\.\.\.|…)\s*$|^\s*waiting\b/i.test(l));
  const partial =
    counted
      .map((l) => PARTIAL.exec(l))
      .reverse()
      .find((m) => m !== null) ?? null;
  if (partial !== null) {
    const [done, of] = [partial[1] ?? partial[3] ?? partial[5], partial[2] ?? partial[4] ?? partial[6]].map(Number);
    // "5 of 5 sent" is whole; a bare "partial success" has no numbers and is partial by its words.
    if (done === undefined || Number.isNaN(done) || done < of) out.push(finding(-1, `partial:${partial[0]}`));
    else out.push(finding(1, `all done:${partial[0]}`));
  }
  if (FAILED_COUNT.test(text)) out.push(finding(-1, `failed count:${FAILED_COUNT.exec(text)![1]}`));
  const failed = STATUS_FAILED.exec(text);
  if (failed !== null) out.push(finding(-1, `status:${failed[1]}`));
  const body = BODY_STATUS.exec(text);
  if (body !== null && /^\s*\{/.test(text)) out.push(finding(-1, `body status:${body[1]}`));
  const done = STATUS_DONE.exec(text);
  // {"ok": true, "result": []}: the call worked and found nothing (information, below).
  if (done !== null && failed === null && !NO_RESULTS.test(text) && !LISTING.test(text)) out.push(finding(1, `status:${done[1]}`));
  if (CONFIRMED_PAGE.test(text)) out.push(finding(1, 'confirmed'));
  const meant = DID_YOU_MEAN.exec(text);
  // "0 results … Did you mean: Trattoria da Gigi?", {"valid": false, "message": "Did you mean …?"}: the search or the input was wrong.
  if (
    meant !== null &&
    (NO_RESULTS.test(text) ||
      /"(?:valid|valido|válido|valide|gültig)"\s*:\s*false|\b(?:is not valid|isn'?t valid|invalid|not recogni[sz]ed|unknown)\b/i.test(text))
  )
    out.push(finding(-1, 'did you mean', meant[0].trim().replace(/^"did_?you_?mean"\s*:\s*"([^"]+)"$/i, 'did you mean $1')));
  else if (out.length === 0 && /"(?:valid|valido|válido|valide|gültig)"\s*:\s*false/i.test(text)) out.push(finding(-1, 'valid:false'));
  if (out.length === 0 && PREVIEW.test(text)) out.push(finding(0, 'preview'));
  if (out.length === 0 && NO_RESULTS.test(text)) out.push(finding(0, 'no results'));
  // A page of search results or a status page that reports nothing wrong: information.
  if (out.length === 0 && (SEARCH_RESULTS.test(text) || STATUS_PAGE.test(text))) out.push(finding(0, 'results or status page'));
  // {"result_code": 0}, {"errcode": 0}: the API's own success code; any other is its failure.
  const code = /"(?:result_?code|err_?code|error_?code|errcode|ret_?code)"\s*:\s*(-?\d+)/i.exec(text);
  if (out.length === 0 && code !== null) out.push(finding(Number(code[1]) === 0 ? 1 : -1, `code:${code[1]}`));
  // {"code": 0, "msg": "success", "data": {…}}: the envelope of many shop and delivery APIs.
  if (out.length === 0 && /"(?:msg|message)"\s*:\s*"(?:success|succeeded|ok|成功)"/i.test(text)) out.push(finding(1, 'msg:success'));
  // A listing of several objects is a read, not a created thing.
  if (out.length === 0 && CREATED.test(text) && !BODY_ERROR.test(text) && !LISTING.test(text)) out.push(finding(1, 'created'));
  return out;
};

export const ASSISTANT_PARSERS: ToolParser[] = [walls, outcomes];
