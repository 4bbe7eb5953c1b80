// Secrets by their shape: one row per kind of key, its pattern (the value is the `v` group, or
// the whole match), and the values that look like keys but are not (documented examples,
// placeholders, references, masks). Typed rows come first: where spans overlap, the earlier row
// wins (a GitHub token used as a URL password is a github_token).
// Measured on the blind sets of bench/privacy-set/ with `npm run bench:privacy` (their LOG.md).
import { tableFields } from './spans.ts';

export interface SecretRow {
  type: string;
  re: RegExp;
}

const row = (type: string, source: string, flags = ''): SecretRow => ({ type, re: new RegExp(source, `gd${flags}`) });

/** Not a key inside an ARN ("arn:aws:secretsmanager:eu-west-1:…:secret:prod/db" names where a secret is kept). */
const NOT_IN_ARN = String.raw`(?<!\barn:[\w-]+:(?:[\w-]*:)*)`;

/** Words in a config key that name a secret (`DB_PASSWORD`, `jwtSecret`, `STRIPE_WEBHOOK_SECRET`, `api-key`). */
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]*(?:passw(?:or)?d|passwd|_pass|^pass|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|master[_-]?key|auth[_-]?key|signing[_-]?key|encryption[_-]?key|preshared[_-]?key|credentials?|_key|psk|passphrase|totp|otp_?seed)[A-Za-z0-9_.-]*`;

/** "password" in the languages of the traffic: whole words with the endings some add (Turkish şifresini, Russian пароля), or inside a CJK run. */
const PASSWORD_WORD = String.raw`(?:(?<!\p{L})(?:password|passwort|kennwort|mot de passe|mdp|contraseña|clave|senha|parola|wachtwoord|hasło|haslo|şifre|sifre|lösenord|passord|adgangskode|salasana|heslo|jelszó|parolă|κωδικός|passcode|passphrase|wi-?fi (?:network )?key|network key|пароль|parool|lykilorð|pasahitz|slaptažod|parole|geslo|lozinka|лозинка|парола|contrasenya|contrasinal|cyfrinair|pasfhocal|fjalëkalim|kata laluan|şifrə|құпиясөз|нууц үг|mật khẩu|mat khau|khóa bí mật|ה?סיסמ[הא]|code (?:du )?wi-?fi|wi-?fi[- ]?code|clé wi-?fi|kata sandi|nenosiri|password field|pw)\p{L}{0,5}|비밀번호|비번|암호|密码|密碼|口令|パスワード|كلمة المرور|كلمة السر|كلمة سر|رمز عبور|گذرواژه|پاس ورڈ|პაროლი|գաղտնաբառ|የይለፍ ቃል|পাসওয়ার্ড|கடவுச்சொல்|รหัสผ่าน|รหัส ?wi-?fi|รหัส(?!ไปรษณีย์|สินค้า|พนักงาน|นักศึกษา|ลูกค้า)|पासवर्ड)`;
/** "changed to", "set to" in the languages of the traffic: "diganti jadi", "ustawiłem na", "geändert auf", "đổi thành". */
const CHANGED_TO = String.raw`[^\n:：.?!]{0,40}?(?<!\p{L})(?:changed|set|reset|updated|diganti|diubah|ganti|ubah|ustawi\p{L}*|zmieni\p{L}*|geändert|gesetzt|cambiad[ao]|cambiat[ao]|impostat[ao]|alterad[ao]|mudad[ao]|chang[ée]|modifi[ée]|défini|изменил\p{L}*|поменял\p{L}*|сменил\p{L}*|установил\p{L}*|değiştir\p{L}*|đổi|thay)(?!\p{L})[^\n:：.?!\d]{0,12}?[ \t](?:to|jadi|menjadi|na|auf|zu|en|a|para|em|на|thành|sang)[ \t]+`;
/**
 * What joins the word to its value: "is", "es", "è", "هي", "है" or a colon, a particle (는, 是, は, 改成),
 * a few words first ("la clave del correo es …"), or only a space when the value has a digit.
 */
const PASSWORD_LINK = String.raw`(?:(?:[^\n:：.?!]{0,40}?[ \t])?(?:is|ist|est|es|e|é|è|era|это|was|hai|hei|هي|هو|है|now|ora|agora|jetzt|теперь|to|jest|c'est|sono|er|är|on|será|ser|είναι|היא|הוא|là|є|je|ni|adalah|reads|คือ)(?=[\s:：])[ \t]*[:：]?[ \t]*|[ \t][\p{L}\p{N} \t'’]{0,40}?[ \t]*[:：—–][ \t]*|[ \t](?:\p{L}+[ \t]){1,4}(?=[^\s"'«“「]*\d)|[ \t]*(?:[:：=]|는|은|是|为|為|改成|改为|设为|は|を)[ \t]*|[^\n:：.?!]{0,40}?คือ[ \t]*|${CHANGED_TO}|[ \t]+(?=\S*[\d!#$%^&*@]))`;
/** A value that reads as a password: a letter and a digit or symbol, six characters or more. */
const PASSWORD_VALUE = String.raw`(?=[^\s"'»”」，。、]*[0-9!#$%^&*@])(?=[^\s"'»”」，。、]*[A-Za-z])[A-Za-z0-9!#%&*@_][^\s"'»”」，。、]{5,}`;

export const SECRET_ROWS: readonly SecretRow[] = [
  row(
    'private_key',
    String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`,
  ),
  row('anthropic_key', String.raw`\bsk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{20,}`),
  row('openai_key', String.raw`\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`),
  row('aws_access_key', String.raw`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`),
  row(
    'aws_secret_key',
    String.raw`(?:secret[_ ]?access[_ ]?key|aws[_-]?secret[A-Za-z_]*|SecretAccessKey|secretKey|MINIO_SECRET_KEY|MINIO_ROOT_PASSWORD|secret(?: key)?|シークレット(?:アクセス)?(?:キー)?)["']?(?: \[[^\]\n]*\])?\s*[:=：]\s*["']?(?<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`,
    'i',
  ),
  // (Also labelled in words: "Secret Access Key [None]:", "シークレット:".) A key id and its secret passed together: \`new BasicAWSCredentials("AKIA…", "…")\`, "AKIA…:…".
  row('aws_secret_key', String.raw`\b(?:AKIA|ASIA)[A-Z0-9]{16}["']?[ \t]*[,:;/|]?\s*["']?(?<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`),
  row('gcp_api_key', String.raw`\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`),
  row('github_token', String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`),
  row('slack_webhook', String.raw`https://hooks\.slack\.com/services/[A-Za-z0-9_/-]+`),
  row('discord_webhook', String.raw`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]+`),
  row('slack_token', String.raw`\bxox[abposre]-[A-Za-z0-9-]{10,}`),
  row('stripe_key', String.raw`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`),
  row('npm_token', String.raw`\bnpm_[A-Za-z0-9]{36}\b`),
  row('huggingface_token', String.raw`\bhf_[A-Za-z0-9]{30,}\b`),
  row('sendgrid_key', String.raw`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{20,}`),
  row('telegram_bot_token', String.raw`(?:\b|(?<=\/bot))\d{8,10}:[A-Za-z0-9_-]{35}\b`),
  row('twilio_key', String.raw`\bSK[0-9a-fA-F]{32}\b|\bAC[0-9a-fA-F]{32}:(?<v>[0-9a-fA-F]{32})\b`),
  row('shopify_token', String.raw`\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`),
  row('digitalocean_token', String.raw`\bdo[opr]_v1_[a-f0-9]{64}\b`),
  row('mailgun_key', String.raw`\bkey-[0-9a-f]{32}\b`),
  row('azure_storage_key', String.raw`\b(?:AccountKey|SharedAccessKey)=(?<v>[A-Za-z0-9+/]{40,}={0,2})`),
  row('jwt', String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
  // Other providers' prefixed tokens (GitLab, Grafana, Google OAuth, age, Databricks, Postman, Doppler,
  // Supabase, PyPI, Square, Linear, Notion, Figma, Groq, xAI, Perplexity, Replicate, Mapbox, Atlassian,
  // Docker Hub, Stripe webhooks, Alibaba, Tencent, Azure AD client secrets, Vault, Slack apps, 1Password).
  row(
    'other_secret',
    [
      String.raw`\bgl(?:pat|ptt|dt|rt|cbt|oas|ft|soat|imt|agent)-[A-Za-z0-9_-]{20,}`,
      String.raw`\bglc_[A-Za-z0-9+/]{32,}={0,2}`,
      String.raw`\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}`,
      String.raw`\bya29\.[0-9A-Za-z_-]{20,}`,
      String.raw`\bGOCSPX-[A-Za-z0-9_-]{24,}`,
      String.raw`\bAGE-SECRET-KEY-1[0-9A-Z]{58}`,
      String.raw`\bdapi[a-f0-9]{32}(?:-\d)?\b`,
      String.raw`\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}`,
      String.raw`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}`,
      String.raw`\bsbp_[a-f0-9]{40}`,
      String.raw`\bpypi-AgE[A-Za-z0-9_-]{50,}`,
      String.raw`\bsq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}`,
      String.raw`\blin_api_[A-Za-z0-9]{40}`,
      String.raw`\b(?:secret|ntn)_[A-Za-z0-9]{43,46}\b`,
      String.raw`\bfigd_[A-Za-z0-9_-]{40,}`,
      String.raw`\bgsk_[A-Za-z0-9]{48,52}\b`,
      String.raw`\bxai-[A-Za-z0-9]{60,80}\b`,
      String.raw`\bpplx-[A-Za-z0-9]{40,56}\b`,
      String.raw`\br8_[A-Za-z0-9]{37}\b`,
      String.raw`\bsk\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{20,}`,
      String.raw`\bATATT3[A-Za-z0-9_=-]{100,}`,
      String.raw`\bdckr_pat_[A-Za-z0-9_-]{27,}`,
      String.raw`\bwhsec_[A-Za-z0-9+/=]{32,}`,
      String.raw`\bLTAI[A-Za-z0-9]{12,20}\b`,
      String.raw`\bAKID[A-Za-z0-9]{32}\b`,
      String.raw`(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
      String.raw`\bhv[sb]\.[A-Za-z0-9_-]{24,}`,
      String.raw`\bHRKU-[A-Za-z0-9_-]{20,}`,
      String.raw`\b(?:live|test)_[A-Za-z0-9]{30}\b`,
      String.raw`\by0_[A-Za-z0-9_-]{50,}`,
      String.raw`\bFLWSECK(?:_TEST)?-[a-f0-9]{32}-X\b`,
      String.raw`\b\d{6}(?:-\d{6}){7}\b`,
      String.raw`\bA3(?:-[A-Z0-9]{5,6}){6}\b`,
      String.raw`\bCfDJ8[A-Za-z0-9_-]{50,}`,
      String.raw`https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/-]+`,
      String.raw`\bxapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,}`,
      String.raw`\bops_eyJ[A-Za-z0-9_-]{50,}`,
    ].join('|'),
  ),
  // What a command that prints a secret printed: the first word of the line after it.
  row(
    'other_secret',
    String.raw`(?:\bbase64 (?:-d|--decode|-D)\b|\bpass(?:word)? show\b|\bop read\b|\bvault kv get\b[^\n]*-field|get-secret-value\b[^\n]*--output text|\bsecrets? (?:get|show|reveal)\b|\bauth:token\b|\bgh auth token\b|print-(?:access|identity)-token\b|get-login-password\b|\bget-token\b|\bcreate token\b)[^\n]*\n(?:[^\n]*\n){0,2}?[ \t]*(?<v>(?=[^\s]*\d)[^\s$#>{}›]{12,})[ \t]*(?:\n|$)`,
  ),
  row('other_secret', String.raw`\b[MNO][A-Za-z0-9]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b`),
  // A token as a URL's user name ("https://<token>@github.com/…", a Sentry DSN's key, whatever the scheme's spelling).
  row('other_secret', String.raw`\b[a-z][a-z0-9+.-]*://(?<v>(?=[^\s@/:]*\d)(?=[^\s@/:]*[a-z])[A-Za-z0-9_-]{20,})@[A-Za-z0-9.-]+`),
  // Passwords on command lines.
  row(
    'other_secret',
    String.raw`(?:\bmysql(?:dump)?\b[^\n]*?\s-p|\bredis-cli\b[^\n]*?\s-a\s+|--requirepass["',\s]+|\bsshpass\s+-p\s*|\b(?:docker|podman|helm|oras)\s+(?:registry\s+)?login\b[^\n]*?\s(?:-p|--password)[=\s]+["']?|\bcurl\b[^\n]*?\s(?:-u|--user)[=\s]+["']?[^:\s'"]+:|\s-pass(?:in|out)\s+pass:|\bsmbclient\b[^\n]*?\s-U\s+["']?[^%\s'"]+%|\bsqlcmd\b[^\n]*?\s-P\s+["']?|\bhtpasswd\b[^\n]*?\s-b\b(?:\s+-\w+)*\s+\S+\s+\S+\s+|\bnet use\b[^\n]*?\/user:\S+\s+|\baz login\b[^\n]*?\s(?:-p|--password)[=\s]+["']?|\bvault login\s+(?:-method=token\s+)?|\bngrok (?:config add-)?authtoken\s+|\bSSWS\s+|--(?:password|passwd|pass|token|secret|api-key)[=\s]+["']?)["']?(?<v>[^\s'"]{4,})`,
  ),
  // Session cookies; a password said in words ("the password is …", "Passwort …", "пароль: …").
  row(
    'other_secret',
    String.raw`(?:\b(?:connect\.sid|PHPSESSID|JSESSIONID|[A-Za-z0-9_.-]*sess(?:ion)?(?:id|_id)?)=|"[A-Za-z0-9_.-]*session[A-Za-z0-9_.-]*"\s*:\s*")(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f-]))(?<v>[^;\s"']{16,})`,
  ),
  row('other_secret', String.raw`${PASSWORD_WORD}${PASSWORD_LINK}["'«“「]?(?<v>${PASSWORD_VALUE})`, 'iu'),
  // A login given as "user / password" ("de login … is b.devries@… / wLXwB%KL2f6", "Zugangsdaten: max | Tanne!2024").
  row(
    'other_secret',
    String.raw`(?<!\p{L})(?:log-?in|credentials?|inlog\p{L}*|zugangsdaten|anmeldedaten|identifiants|credenciales|credenciais|dati di accesso|логин|учётные данные|учетные данные)(?!\p{L})[^\n/|]{0,60}?[ \t:](?<u>[^\s/|]{3,})[ \t]*[/|][ \t]*(?<v>${PASSWORD_VALUE})`,
    'iu',
  ),
  // A passphrase of four or more words after the word and a colon ("mot de passe de la base : harbor-tulip-velvet-meadow").
  row('other_secret', String.raw`${PASSWORD_WORD}[^\n:：]{0,40}[:：][ \t]*(?<v>[a-z]{3,}(?:-[a-z]{3,}){3,})(?![\w-])`, 'iu'),
  // A Kubernetes env list in YAML: "- name: PAYMENT_API_KEY" and "value: …" on the next line.
  row('env_secret', String.raw`-[ \t]*name:[ \t]*["']?(?<k>${SECRET_KEY})["']?[ \t]*\n[ \t]*value:[ \t]*["']?(?<v>[^"'\s]{4,})`, 'i'),
  // Asked in one chat message, answered alone in the next ("wifi ka password kya hai?" / "[19:05] Ankit: trombone0936!").
  row(
    'other_secret',
    String.raw`${PASSWORD_WORD}[^\n?？]{0,40}[?？][ \t]*\n(?:\[[^\]\n]{1,40}\][ \t]*)?(?:[^\s:：\n][^:：\n]{0,30}[:：][ \t]*)?(?<v>${PASSWORD_VALUE})[ \t]*$`,
    'ium',
  ),
  // A Wi-Fi key printed in digit groups, as routers' setup pages and stickers do ("WLAN-Netzwerkschlüssel: 7440 6285 …").
  row(
    'other_secret',
    String.raw`(?:wi-?fi|wlan|wpa2?|network)[ -]?(?:network[ -]?)?(?:key|schlüssel|netzwerkschlüssel|clé|clave|chiave)[^\d\n]{0,12}?[:=][ \t]*(?<v>\d{4}(?: \d{4}){3,5})(?![\d])`,
    'i',
  ),
  // PINs and door codes said as such ("il PIN del bancomat è 91337", "le digicode c'est B2287"), and
  // what `netsh wlan show profile key=clear` prints as the Wi-Fi key.
  row(
    'other_secret',
    String.raw`(?:(?<!\p{L})(?:PIN|PUK|digicode|door ?code|gate ?code|alarm ?code|access ?code|entry ?code|keypad ?code|T[üu]rcode|Torcode|Alarmcode|c[óo]digo (?:de acesso|da porta|do port[ãa]o|de la puerta|de la alarma)|код (?:от двери|домофона|сигнализации)|Key Content|код (?:от|для|до) \p{L}+|сейф\p{L}*|safe|Tresor\p{L}*|cassaforte|caja fuerte|coffre(?:-fort)?|combinazione|combinación|combinaison|Kombination|lockbox|key ?box|cassetta delle chiavi|code (?:de l'alarme|d'alarme|de la porte|du portail|de l'immeuble|d'entrée)|kod(?:en)? till (?:porten|dörren|larmet)|portkod(?:en)?|larmkod(?:en)?)(?!\p{L})|暗証番号|門禁密码|门禁密码|Zugangscode\p{L}*|şifre\p{L}{0,5}|الرقم السري|비밀번호\p{L}?|비번\p{L}?)[^\d\n]{0,45}?(?<v>(?<![\dA-Za-z])(?:[A-Z]?\d{4,8}|\d{2,4}[A-Z]\d{2,4})(?![\dA-Za-z]| \d)|(?<=Key Content\s*:\s*)\S{8,})`,
    'iu',
  ),
  // A vendor's live key by its shape ("kol_live_…", "acme_prod_…"): test keys are documented examples.
  row('other_secret', String.raw`\b(?!pk_)[a-z]{2,10}_(?:live|prod)_[A-Za-z0-9]{20,}\b`),
  // Django's generated SECRET_KEY keeps its "django-insecure-" prefix until someone replaces it: a real value.
  row('env_secret', String.raw`\bdjango-insecure-[^\s'"]{20,}`),
  // Terraform: a variable named as a secret, its default.
  row('env_secret', String.raw`\bvariable\s+"(?<k>${SECRET_KEY})"\s*\{[^}]*?\bdefault\s*=\s*"(?<v>[^"\n]{4,})"`, 'i'),
  // An ini line "key = …" (rclone, s3cmd) whose value is a mixed-case random string.
  row(
    'env_secret',
    String.raw`^[ \t]*(?:key|secret)[ \t]*=[ \t]*(?<v>(?=[^\s]*\d)(?=[^\s]*[a-z])(?=[^\s]*[A-Z])[A-Za-z0-9+/_-]{20,})[ \t]*$`,
    'm',
  ),
  // A secret set from a command line: \`aws configure set aws_secret_access_key …\`, \`dotnet user-secrets set "Smtp:Password" "…"\`, \`gh secret set NAME --body …\`.
  row(
    'env_secret',
    String.raw`\b(?:configure|config|user-secrets|secret)\s+set\s+["']?(?:[A-Za-z0-9_.-]+:)*(?<k>${SECRET_KEY})["']?(?:\s+--body)?\s+["']?(?<v>[^\s"']{4,})`,
    'i',
  ),
  // \`mc alias set NAME URL ACCESS SECRET\` (MinIO client): the secret is the last word.
  row('other_secret', String.raw`\bmc (?:alias|config host) (?:set|add) \S+ \S+ \S+ (?<v>\S{16,})`),
  // A password manager asked to reveal: \`op item get … --reveal\` prints "user,password".
  row('other_secret', String.raw`\bop item get\b[^\n]*--reveal[^\n]*\n(?:[^\n,]*,)*(?<v>[^\s,]{8,})[ \t]*(?:\n|$)`),
  // A token a page shows once ("it won't be shown again", "wird nicht erneut angezeigt"): the line of it.
  row(
    'other_secret',
    String.raw`(?:won'?t be shown again|will not be shown again|only be shown once|nicht erneut angezeigt|ne sera plus affiché|no se volverá a mostrar|non verrà (?:più )?mostrat\p{L}|não será (?:exibid|mostrad)\p{L}|больше не будет показан\p{L}*)[^\n]*\n(?:[^\n]*\n)?[ \t]*(?<v>(?=[^\s]*\d)[A-Za-z0-9_.-]{20,})[ \t]*(?:\n|$)`,
    'iu',
  ),
  // A gate, door or alarm code said in words, in either order ("code ya geti ni 5721", "de code van het
  // hek is 3387", "Kód k alarmu je 5818", "die Alarmanlage hat einen neuen Code: 5871", "kod do furtki 7732").
  row(
    'other_secret',
    String.raw`(?:(?<!\p{L})(?:code|kode|kod|kód|codice|código|PIN)(?!\p{L})[^\d\n]{0,30}?(?<!\p{L})(?:gate|geti|gerbang|pagar|hek|poort|deur|cancello|portone|portão|portao|furtk\p{L}*|bram\p{L}*|branky|brány|alarm\p{L}*|door|porte|portail|puerta|portal|tür|tor|dveří|vchod\p{L}*|klatk\p{L}*)|(?<!\p{L})(?:alarm\p{L}*|gate|door|tür|tor|hek|cancello|portão)(?!\p{L})[^\d\n]{0,30}?(?<!\p{L})(?:code|kode|kod|kód|codice|código)(?!\p{L})|รหัสประตู\p{L}*)[^\d\n]{0,25}?(?<v>(?<![\dA-Za-z])\d{4,8})(?![\dA-Za-z]| \d)`,
    'iu',
  ),
  // TOTP seeds as apps show them: base32 in groups of four ("6MHO RO2R NS6A …"); two groups of
  // digits only are words and numbers ("test card 4242 4242 4242 4242"), not a seed.
  row(
    'other_secret',
    String.raw`(?<![A-Za-z2-7])(?=(?:[A-Za-z ]{0,49}[2-7]){2})(?!(?:[A-Za-z2-7]{4} )*?[2-7]{4} (?:[A-Za-z2-7]{4} )*?[2-7]{4}(?![A-Za-z2-7]))(?:(?:[A-Z2-7]{4} ){5,9}[A-Z2-7]{4}|(?:[a-z2-7]{4} ){5,9}[a-z2-7]{4})(?![A-Za-z2-7])`,
  ),
  // Wallet recovery phrases: 12 to 24 lowercase words after a word naming one.
  row(
    'other_secret',
    String.raw`(?:recovery|seed|secret|mnemonic|backup|wallet) ?(?:phrase|words)[^\n:：]{0,60}?[:：]?\s*(?<v>(?:[a-z]{3,8} ){11,23}[a-z]{3,8})\b`,
    'i',
  ),
  // ~/.pgpass lines: host:port:database:user:password.
  row('env_secret', String.raw`^[A-Za-z0-9.*_-]+:(?:\d+|\*):[^:\s]+:[^:\s]+:(?<v>\S{4,})$`, 'm'),
  // A password may hold "@" itself ("pg://u:h2@x*Q@db:5432"): the host follows the last one.
  row('password_in_url', String.raw`\b[a-z][a-z0-9+.-]*://[^\s:@/'"]*:(?<v>(?:[^\s@/'"]|@(?=[^\s/'"]*@))+)@[A-Za-z0-9.-]`, 'i'),
  row(
    'other_secret',
    String.raw`[?&](?:access_token|token|api_key|apikey|api-key|password|passwd|secret|client_secret|sig|signature|X-Amz-Signature|X-Goog-Signature|auth)=(?<v>[^&\s"'#]{12,})`,
  ),
  row('basic_auth', String.raw`"auth"\s*:\s*"(?<v>[A-Za-z0-9+/]{16,}={0,2})"`),
  // {"key": "token", "value": "…"} (Postman, Kubernetes env arrays in JSON).
  row('env_secret', String.raw`"(?:key|name)"\s*:\s*"(?<k>${SECRET_KEY})"\s*,\s*"value"\s*:\s*"(?<v>[^"\s]{4,})"`, 'i'),
  // .NET appSettings: <add key="SmtpPassword" value="…" />.
  row('env_secret', String.raw`<add\s+key\s*=\s*"(?<k>${SECRET_KEY})"\s+value\s*=\s*"(?<v>[^"\n]{4,})"`, 'i'),
  // A session cookie in a HAR file or a cookie jar's JSON: { "name": "connect.sid", "value": "…" }.
  row(
    'other_secret',
    String.raw`"name"\s*:\s*"(?:connect\.sid|PHPSESSID|JSESSIONID|[A-Za-z0-9_.-]*sess(?:ion)?(?:id|_id)?)"\s*,\s*"value"\s*:\s*"(?<v>[^"\s]{16,})"`,
    'i',
  ),
  row('env_secret', String.raw`<(?<k>${SECRET_KEY})>(?<v>[^<\s]{4,})<\/`, 'i'),
  row('basic_auth', String.raw`\bBasic\s+(?<v>[A-Za-z0-9+/]{12,}={0,2})`),
  row('bearer_token', String.raw`\bBearer\s+(?<v>[A-Za-z0-9._~+/-]{16,}=*)`),
  // Quoted values may hold anything but their quote (Django's SECRET_KEY, wp-config's define()).
  row('env_secret', String.raw`\bdefine\(\s*["'](?<k>${SECRET_KEY})["']\s*,\s*(?<q>["'])(?<v>(?:(?!\k<q>)[^\n]){4,})\k<q>`, 'i'),
  row(
    'env_secret',
    String.raw`(?<![A-Za-z0-9_])${NOT_IN_ARN}["']?(?<k>${SECRET_KEY})["']?[ \t]*(?:=|:|=>)[ \t]*(?<q>"""|'''|["'])(?<v>(?:(?!\k<q>)[^\n]){4,})\k<q>`,
    'i',
  ),
  row(
    'env_secret',
    String.raw`(?<![A-Za-z0-9_])${NOT_IN_ARN}["']?(?<k>${SECRET_KEY})["']?[ \t]*(?:=|:|=>)[ \t]*["']?(?<v>[^\s"'\`,;}{)(]{4,})`,
    'i',
  ),
  // A table of keys and values aligned by spaces (\`vault kv get\`, \`consul kv\`): a key that names a secret, then its value.
  row('env_secret', String.raw`^[ \t]*(?<k>${SECRET_KEY})(?:[ \t]{2,}|\t)(?<v>[^\s]{8,})[ \t]*$`, 'im'),
  // (A key as long as its column leaves one space: then only a long value with letters and digits.)
  row('env_secret', String.raw`^[ \t]*(?<k>${SECRET_KEY}) (?<v>(?=\S*\d)(?=\S*[A-Za-z])[^\s]{20,})[ \t]*$`, 'im'),
];

/** Keys whose values are public or not credentials, though their names say key/token. */
const PUBLIC_KEY_WORDS = new Set(
  (
    'public publishable id keyid pk ttl header headers name type length file path url endpoint algorithm alg prefix count size limit max min timeout ' +
    'seconds issuer audience field scope uri hash hashing store provider backend manager mode method strategy format policy rotation engine ' +
    'existing ref version lifetime duration location dir enabled required env var kind hasher algo cipher kdf setting arn media'
  ).split(' '),
);

/** True when a word of the key (`existingSecret`, `token_ttl`, `secret_engine`) says its value is not a credential. */
function publicKeyName(key: string): boolean {
  key = key.replace(/^(?:process\.env|import\.meta\.env|os\.environ)\.?/, '');
  return /expir/i.test(key) || key.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).some((w) => PUBLIC_KEY_WORDS.has(w.toLowerCase()));
}

/** What a one-time code's message says after it ("… é 808434. Não compartilhe"): it expires in minutes, unlike a PIN or a door code. */
const ONE_TIME_AFTER =
  /^[^\n]{0,60}?(?:do not share|don'?t share|never share|não compartilhe|nao compartilhe|no (?:lo )?compartas|ne le partagez|nicht weitergeben|valid for \d|expires in|válido por|valido por|expira (?:em|en)|gültig für|действителен|не сообщайте)/i;

/** Values that are never secrets: placeholders, documented examples, references, masks, plain words. */
export function isPlaceholder(value: string): boolean {
  return (
    /(?<![A-Za-z])YOUR(?![a-z])/.test(value) ||
    /EXAMPLE|\.\.\.|…|<|>|your[-_]|REDACTED|MASKED|FILTERED|REPLACE|CHANGE[-_]?ME|set-me|secret-here/i.test(value) ||
    /x{5,}|X{5,}|0{8,}|\*{3,}|•{3,}/.test(value) ||
    /^\$|^%\(|\{\{|^\?|process\.env|os\.(?:environ|getenv)|getenv|^var\.|valueFrom|secretKeyRef|^\/run\/secrets/.test(value) ||
    // References to a secret stored elsewhere, and values encrypted at rest (SOPS).
    /^@Microsoft\.KeyVault\b|^ENC\[|^op:\/\/|^vault:|^ref\+|^sm:\/\/|^awssm:|^gcpsm:|^akv:/.test(value) ||
    // YAML tags: Ansible's encrypted "!vault |", Home Assistant's "!secret name", CloudFormation's "!Ref X".
    /^!(?:vault|secret|Ref|Sub|GetAtt|ImportValue|env_var|include|unsafe)\b/.test(value) ||
    // The weak passwords a policy names as examples of what it refuses.
    /^(?:qwerty\d*|password\d*|p@ssw0rd|passw0rd|letmein|abc123|iloveyou|admin123)[!.]?$/i.test(value) ||
    // A password manager's name ("the password manager is 1Password").
    /^1password[.,;!]?$/i.test(value) ||
    /^(?:null|none|true|false|password|secret|token|xxx|admin|changeme|undefined|required|optional|string|1234|12345|123456|0000|1111)$/i.test(
      value,
    )
  );
}

/** A config value that is not a credential: numbers, durations, URLs without a password, header or algorithm names. */
function notACredential(value: string, key: string): boolean {
  if (publicKeyName(key)) return true;
  if (/^\d+(?:\.\d+)?(?:ms|s|m|h|d)?$|^\d+_\d+$/.test(value)) return true;
  // Algorithm names ("argon2id", "aes-256-gcm"), and names of secrets rather than secrets ("postgres-password").
  if (
    /^(?:argon2(?:id|i|d)?|bcrypt|scrypt|pbkdf2(?:[-_]sha\d+)?|sha-?\d+|md5|hmac[-_]?sha\d+|aes-?\d+(?:-[a-z]{3})?|rsa|ed25519)$/i.test(
      value,
    )
  )
    return true;
  if (/^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/.test(value) && /password|secret|token|key|credential/.test(value)) return true;
  // Versions ("^9.0.2"), colours ("#fff4e5"), markers ("[use"), a PEM header alone, publishable keys ("pk.…").
  if (/^[\^~]?\d+\.\d+(?:\.\d+)?|^#[0-9a-f]{3,8}$|^\[|^-----BEGIN|^pk[._]/i.test(value)) return true;
  if (/^(?:https?|wss?):\/\/[^@]*$/.test(value)) return true;
  // A key that runs into a URL ("credential.https://github.com.username=…" in \`git config --list\`).
  if (value.startsWith('//')) return true;
  // A file that holds the secret, not the secret ("./keys/sa.json", "/etc/app/session.key").
  if (/^(?:\.{0,2}\/|~\/)[\w.@/-]+$|^[\w.@/-]+\.(?:json|pem|key|p12|pfx|crt|cer|jks|ya?ml|txt)$/i.test(value)) return true;
  // The name of a setting ("JWT_SECRET"), a reference to a stored secret (an ARN, "kv/data/smtp:password").
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value) && /[A-Z]{3}/.test(value)) return true;
  // A setting read from elsewhere by name ("settings.STRIPE_SECRET_KEY", "config.DB_PASSWORD").
  if (/^[A-Za-z_$][\w$]*(?:\.[\w$]+)*\.(?:__)?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?:__)?$/.test(value)) return true;
  // A JWT's header alone ('{"alg":…}' / '{"typ":…}' in base64url, no payload or signature) carries nothing secret.
  if (/^eyJ(?:hbGciOi|0eXAiOi)[A-Za-z0-9_-]*$/.test(value)) return true;
  if (/^arn:aws[a-z-]*:/.test(value) || /^[a-z0-9_-]+(?:\/[a-z0-9_-]+)+(?::[a-z_]+)?$/.test(value)) return true;
  if (/^(?:HS|RS|ES|PS)\d{3}$|^X-[A-Za-z-]+$|^[A-Z][a-z]+-[A-Z][a-z]+$/.test(value)) return true;
  // Identifiers and words, not secrets: no digit and no symbol in a short lowercase word ("required", "bearer").
  return /^[a-z]+$/.test(value) && value.length < 12;
}

/** A line that announces one-time codes: "GitHub recovery codes", "Backup-Codes", "коды восстановления", "복구 코드", "备用码". */
const CODES_HEADER =
  /(?:recovery|backup|rescue|one-time|2fa|mfa|scratch|emergency)[ -]codes?|backup-?codes|back-up ?codes|herstelcodes|kody zapasowe|kody odzyskiwania|kode (?:cadangan|pemulihan)|kurtarma kodlar\p{L}*|yedek kodlar\p{L}*|codici di (?:recupero|backup|emergenza)|återställningskoder|reservkoder|gjenopprettingskoder|backupkoder|reservekoder|palautuskood\p{L}*|varakood\p{L}*|záložní kódy|kódy pro obnovení|mã (?:khôi phục|dự phòng)|коди відновлення|резервні коди|κωδικοί (?:ανάκτησης|αντιγράφων ασφαλείας)|קודי (?:שחזור|גיבוי)|رموز (?:الاسترداد|احتياطية)|रिकवरी कोड|बैकअप कोड|รหัสสำรอง|códigos? de (?:recupera[cç][aã]o|recuperaci[oó]n|respaldo|seguridad|backup)|codes? de (?:secours|récupération)|wiederherstellungscodes|коды? (?:восстановления|резервн)|резервные коды|(?:복구|백업)\s?코드|(?:备用|恢复|备份)(?:码|代码)|(?:バックアップ|リカバリー?)コード/iu;
/** One code on its own line, as sites print them: "xwhtn-jngrd", "4671 9821", "8 3k9f-2jq4", "1. 93810457". */
const CODE = String.raw`[A-Za-z0-9]{3,6}(?:[ -][A-Za-z0-9]{3,6}){1,3}|[A-Za-z0-9]{8,12}`;
/** A line of codes: one, or several apart by "·", ",", "|" or wide spaces, after an optional bullet. */
const CODE_LINE = new RegExp(
  String.raw`^[ \t]*(?:[-*•]|\d{1,2}[.)])?[ \t]*(?:${CODE})(?:(?:[ \t]*[·,;|•][ \t]*|[ \t]{2,})(?:${CODE}))*[ \t,]*$`,
);
const CODE_IN_LINE = new RegExp(CODE, 'g');

/** Lines of prose a header may have before its codes ("GitHub recovery codes\nSave these in a safe place.\n\n…"). */
const PROSE_BEFORE_CODES = 2;

/** One-time recovery codes: the code lines that follow a header naming them (after up to two lines of prose), up to the first line that is not one. */
function recoveryCodes(text: string): Array<{ type: string; start: number; end: number }> {
  const out: Array<{ type: string; start: number; end: number }> = [];
  let offset = 0;
  let armed = false;
  let prose = 0;
  for (const line of text.split('\n')) {
    const body = line.replace(/^[ \t]*(?:[-*•]|\d{1,2}[.)])/, (b) => ' '.repeat(b.length));
    // A code has a digit, or is letter groups ("xwhtn-jngrd"); a plain word ("Settings") is not one.
    const codes =
      armed && CODE_LINE.test(line) ? [...body.matchAll(CODE_IN_LINE)].filter((m) => /\d|^[a-z]{3,6}(?:[ -][a-z]{3,6})+$/.test(m[0])) : [];
    if (codes.length > 0) {
      for (const m of codes) out.push({ type: 'other_secret', start: offset + m.index!, end: offset + m.index! + m[0].length });
      prose = PROSE_BEFORE_CODES;
    } else if (CODES_HEADER.test(line)) {
      armed = true;
      prose = 0;
      // Codes on the header's own line, after its colon ("… backup code ng Google account ko: 7852 0671, 0212 5588").
      const after = line.indexOf(':', line.search(CODES_HEADER));
      const list = after < 0 ? '' : line.slice(after + 1);
      // (Or apart by spaces when each is a dashed pair with a digit: "Recovery codes: dzq5-t4dq y5i8-gfie".)
      const spaced = /^[ \t]*[A-Za-z0-9]{3,6}-[A-Za-z0-9]{3,6}(?:[ \t]+[A-Za-z0-9]{3,6}-[A-Za-z0-9]{3,6})+[ \t"',.]*$/.test(list);
      if (spaced || new RegExp(String.raw`^[ \t]*(?:${CODE})(?:[ \t]*[,;·|][ \t]*(?:${CODE}))+`).test(list))
        for (const m of list.matchAll(spaced ? /[A-Za-z0-9]{3,6}-[A-Za-z0-9]{3,6}/g : CODE_IN_LINE))
          if (/\d/.test(m[0]))
            out.push({ type: 'other_secret', start: offset + after + 1 + m.index!, end: offset + after + 1 + m.index! + m[0].length });
    } else if (line.trim() !== '')
      // Prose before the first code is allowed; after a code, any other line ends the list.
      armed = armed && ++prose <= PROSE_BEFORE_CODES;
    offset += line.length + 1;
  }
  return out;
}

/** Password-manager and browser exports: the password column of CSV rows under a header that names one. */
function csvPasswords(text: string): Array<{ type: string; start: number; end: number }> {
  const out: Array<{ type: string; start: number; end: number }> = [];
  let column = -1;
  let offset = 0;
  for (const line of text.split('\n')) {
    const fields = line.includes(',') ? tableFields(line, ',') : [];
    const header = fields.findIndex((f) =>
      /^(?:password|passwort|contraseña|senha|mot de passe|пароль|login_password)$/i.test(f.value.trim()),
    );
    if (header >= 0) column = header;
    else if (column >= 0 && fields.length > column) {
      const f = fields[column];
      if (f.value.length >= 4) out.push({ type: 'other_secret', start: offset + f.start, end: offset + f.start + f.value.length });
    } else column = -1;
    offset += line.length + 1;
  }
  return out;
}

/** Rows that read a secret from the words around it, whose values may be plain words ("harbor-tulip-velvet-meadow"). */
const CONTEXT_TYPES = new Set(['env_secret', 'password_in_url', 'other_secret']);

/** The secret spans of `text`, before overlaps are resolved. */
export function secretSpans(text: string): Array<{ type: string; start: number; end: number }> {
  const out: Array<{ type: string; start: number; end: number }> = [...recoveryCodes(text), ...csvPasswords(text)];
  for (const { type, re } of SECRET_ROWS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const [start, whole] = m.indices?.groups?.v ?? m.indices![0];
      // Sentence punctuation after a value is not part of it ("the password Tulip#4471, thanks").
      let end = whole;
      while (end > start + 1 && /[,;.]/.test(text[end - 1])) end--;
      const value = text.slice(start, end);
      if (isPlaceholder(text.slice(start, whole)) || end - start < 4) continue;
      // A key's random tail has capitals or digits; lowercase words joined by dashes are a name ("sk-circle-rotate-delay").
      if (!CONTEXT_TYPES.has(type) && /^[a-z]+(?:[-_][a-z]+)+$/.test(value)) continue;
      if (type === 'env_secret' && notACredential(value, m.groups?.k ?? '')) continue;
      if (/^\d{4,8}$/.test(value) && !/(?<!\p{L})PIN(?!\p{L})/iu.test(m[0]) && ONE_TIME_AFTER.test(text.slice(end, end + 80))) continue;
      out.push({ type, start, end });
    }
  }
  return out;
}
