// Secrets by their shape: one row per kind of key, its pattern (the value is the `v` group, or
// the whole match), and the values that look like keys but are not (documented examples,
// placeholders, references, masks). Typed rows come first: where spans overlap, the earlier row
// wins (a GitHub token used as a URL password is a github_token).
// Measured on bench/privacy-set/dev-1 with `npm run bench:privacy` (docs/privacy.md).

export interface SecretRow {
  type: string;
  re: RegExp;
}

const row = (type: string, source: string, flags = ''): SecretRow => ({ type, re: new RegExp(source, `gd${flags}`) });

/** Words in a config key that name a secret (`DB_PASSWORD`, `jwtSecret`, `STRIPE_WEBHOOK_SECRET`, `api-key`). */
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]*(?:passw(?:or)?d|passwd|_pass|^pass|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|master[_-]?key|auth[_-]?key|signing[_-]?key|encryption[_-]?key|credentials?|_key)[A-Za-z0-9_.-]*`;

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
    String.raw`(?:secret[_ ]?access[_ ]?key|aws[_-]?secret[A-Za-z_]*|SecretAccessKey|secretKey|MINIO_SECRET_KEY|MINIO_ROOT_PASSWORD)["']?\s*[:=]\s*["']?(?<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])`,
    'i',
  ),
  row('gcp_api_key', String.raw`\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`),
  row('github_token', String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`),
  row('slack_webhook', String.raw`https://hooks\.slack\.com/services/[A-Za-z0-9_/-]+`),
  row('discord_webhook', String.raw`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]+`),
  row('slack_token', String.raw`\bxox[abposre]-[A-Za-z0-9-]{10,}`),
  row('stripe_key', String.raw`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`),
  row('npm_token', String.raw`\bnpm_[A-Za-z0-9]{36}\b`),
  row('huggingface_token', String.raw`\bhf_[A-Za-z0-9]{30,}\b`),
  row('sendgrid_key', String.raw`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{20,}`),
  row('telegram_bot_token', String.raw`\b\d{8,10}:[A-Za-z0-9_-]{35}\b`),
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
      String.raw`\bhv[sb]\.[A-Za-z0-9_-]{90,}`,
      String.raw`\bxapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{32,}`,
      String.raw`\bops_eyJ[A-Za-z0-9_-]{50,}`,
    ].join('|'),
  ),
  // What a command that prints a secret printed: the first word of the line after it.
  row(
    'other_secret',
    String.raw`(?:\bbase64 (?:-d|--decode|-D)\b|\bpass(?:word)? show\b|\bop read\b|\bvault kv get\b[^\n]*-field|get-secret-value\b[^\n]*--output text|\bsecrets? (?:get|show|reveal)\b)[^\n]*\n[ \t]*(?<v>[^\s$#>{}]{8,})`,
  ),
  row('other_secret', String.raw`\b[MNO][A-Za-z0-9]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b`),
  // Sentry DSN key, passwords on command lines.
  row('other_secret', String.raw`https://(?<v>[0-9a-f]{32})@[a-z0-9.-]*sentry\.io`),
  row(
    'other_secret',
    String.raw`(?:\bmysql(?:dump)?\b[^\n]*?\s-p|\bredis-cli\b[^\n]*?\s-a\s+|--requirepass["',\s]+|\bsshpass\s+-p\s*|\b(?:docker|podman|helm|oras)\s+(?:registry\s+)?login\b[^\n]*?\s(?:-p|--password)[=\s]+["']?|\bcurl\b[^\n]*?\s(?:-u|--user)[=\s]+["']?[^:\s'"]+:)(?<v>[^\s'"]{4,})`,
  ),
  // Session cookies; a password said in words ("the password is …", "Passwort …", "пароль: …").
  row(
    'other_secret',
    String.raw`\b(?:connect\.sid|sessionid|session_id|PHPSESSID|JSESSIONID|_session|laravel_session)=(?<v>[^;\s"']{16,})`,
  ),
  row(
    'other_secret',
    String.raw`(?:\b(?:password|passwort|kennwort|mot de passe|mdp|contraseña|clave|senha|parola|wachtwoord|hasło|haslo|şifre|sifre|lösenord|passord|adgangskode|salasana|heslo|jelszó|parolă|κωδικός|passcode|wifi key)|пароль|비밀번호|비번|암호|密码|密碼|口令|パスワード)(?:\s+(?:is|ist|est|es|é|era|это|was)\s*[:：]?|[ \t]*(?:[:：]|는|은|是|为|為|改成|改为|设为|は|を)[ \t]*|[ \t]+(?=\S*\d))[ \t]*["'«“]?(?<v>(?=[^\s"'»”，。、]*[0-9!#$%^&*@])(?=[^\s"'»”，。、]*[A-Za-z])[A-Za-z0-9!#%&*@][^\s"'»”，。、]{5,})`,
    'i',
  ),
  // ~/.pgpass lines: host:port:database:user:password.
  row('env_secret', String.raw`^[A-Za-z0-9.*_-]+:(?:\d+|\*):[^:\s]+:[^:\s]+:(?<v>\S{4,})$`, 'm'),
  row('password_in_url', String.raw`\b[a-z][a-z0-9+.-]*://[^\s:@/'"]*:(?<v>[^\s@/'"]+)@[A-Za-z0-9.-]`, 'i'),
  row('basic_auth', String.raw`\bBasic\s+(?<v>[A-Za-z0-9+/]{12,}={0,2})`),
  row('bearer_token', String.raw`\bBearer\s+(?<v>[A-Za-z0-9._~+/-]{16,}=*)`),
  row('env_secret', String.raw`(?<![A-Za-z0-9_])["']?(?<k>${SECRET_KEY})["']?[ \t]*(?:=|:|=>)[ \t]*["']?(?<v>[^\s"'\`,;}{)(]{4,})`, 'i'),
];

/** Keys whose values are public or not credentials, though their names say key/token. */
const PUBLIC_KEY_NAME =
  /public|publishable|key_?id|_id$|keyid|pk_|ttl|expir|header|name|type|length|file|path|url|endpoint|algorithm|prefix|count|size|limit|max|min|timeout|seconds|issuer|audience|field|scope|uri|hash|store|provider|backend|manager|mode|method|strategy|format|policy|rotation/i;

/** Values that are never secrets: placeholders, documented examples, references, masks, plain words. */
export function isPlaceholder(value: string): boolean {
  return (
    /EXAMPLE|\.\.\.|…|<|>|YOUR_|your[-_]|REDACTED|MASKED|FILTERED|REPLACE|CHANGE[-_]?ME|set-me|secret-here/i.test(value) ||
    /x{5,}|X{5,}|0{8,}|\*{3,}|•{3,}/.test(value) ||
    /^\$|^%\(|\{\{|^\?|process\.env|os\.(?:environ|getenv)|getenv|^var\.|valueFrom|secretKeyRef|^\/run\/secrets/.test(value) ||
    /^(?:null|none|true|false|password|secret|token|xxx|admin|changeme|undefined|required|optional|string)$/i.test(value)
  );
}

/** A config value that is not a credential: numbers, durations, URLs without a password, header or algorithm names. */
function notACredential(value: string, key: string): boolean {
  if (PUBLIC_KEY_NAME.test(key)) return true;
  if (/^\d+(?:\.\d+)?(?:ms|s|m|h|d)?$/.test(value)) return true;
  if (/^(?:https?|wss?):\/\/[^@]*$/.test(value)) return true;
  if (/^(?:HS|RS|ES|PS)\d{3}$|^X-[A-Za-z-]+$|^[A-Z][a-z]+-[A-Z][a-z]+$/.test(value)) return true;
  // Identifiers and words, not secrets: no digit and no symbol in a short lowercase word ("required", "bearer").
  return /^[a-z]+$/.test(value) && value.length < 12;
}

/** A line that announces one-time codes: "GitHub recovery codes", "Backup-Codes", "коды восстановления", "복구 코드", "备用码". */
const CODES_HEADER =
  /(?:recovery|backup|rescue|one-time|2fa|mfa|scratch|emergency)[ -]codes?|backup-codes|códigos? de (?:recupera[cç][aã]o|respaldo|seguridad|backup)|codes? de (?:secours|récupération)|wiederherstellungscodes|коды? (?:восстановления|резервн)|резервные коды|(?:복구|백업)\s?코드|(?:备用|恢复|备份)(?:码|代码)|(?:バックアップ|リカバリー?)コード/i;
/** One code on its own line, as sites print them: "xwhtn-jngrd", "4671 9821", "8 3k9f-2jq4", "1. 93810457". */
const CODE_LINE = /^[ \t]*(?:[-*•]|\d{1,2}[.)])?[ \t]*(?<v>[A-Za-z0-9]{4,6}[ -][A-Za-z0-9]{4,6}|[A-Za-z0-9]{8,12})[ \t,]*$/;

/** One-time recovery codes: the code lines that follow a header naming them, up to the first line that is not one. */
function recoveryCodes(text: string): Array<{ type: string; start: number; end: number }> {
  const out: Array<{ type: string; start: number; end: number }> = [];
  let offset = 0;
  let armed = false;
  for (const line of text.split('\n')) {
    const v = armed ? CODE_LINE.exec(line)?.groups?.v : undefined;
    // A code has a digit, or is two letter groups ("xwhtn-jngrd"); a plain word ("Settings") is not one.
    if (v && (/\d/.test(v) || /^[a-z]{4,6}-[a-z]{4,6}$/.test(v))) {
      const start = offset + line.indexOf(v);
      out.push({ type: 'other_secret', start, end: start + v.length });
    } else if (CODES_HEADER.test(line)) armed = true;
    else if (line.trim() !== '') armed = false;
    offset += line.length + 1;
  }
  return out;
}

/** The secret spans of `text`, before overlaps are resolved. */
export function secretSpans(text: string): Array<{ type: string; start: number; end: number }> {
  const out: Array<{ type: string; start: number; end: number }> = recoveryCodes(text);
  for (const { type, re } of SECRET_ROWS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const [start, whole] = m.indices?.groups?.v ?? m.indices![0];
      // Sentence punctuation after a value is not part of it ("the password Tulip#4471, thanks").
      let end = whole;
      while (end > start + 1 && /[,;.]/.test(text[end - 1])) end--;
      const value = text.slice(start, end);
      if (isPlaceholder(text.slice(start, whole)) || end - start < 4) continue;
      if (type === 'env_secret' && notACredential(value, m.groups?.k ?? '')) continue;
      out.push({ type, start, end });
    }
  }
  return out;
}
