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
  row('private_key', String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----`),
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
  row('slack_token', String.raw`\bxox[abposre]-[A-Za-z0-9-]{10,}`),
  row('stripe_key', String.raw`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`),
  row('npm_token', String.raw`\bnpm_[A-Za-z0-9]{36}\b`),
  row('huggingface_token', String.raw`\bhf_[A-Za-z0-9]{30,}\b`),
  row('sendgrid_key', String.raw`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{20,}`),
  row('telegram_bot_token', String.raw`\b\d{8,10}:[A-Za-z0-9_-]{35}\b`),
  row('twilio_key', String.raw`\bSK[0-9a-fA-F]{32}\b|\bAC[0-9a-fA-F]{32}:(?<v>[0-9a-fA-F]{32})\b`),
  row('jwt', String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
  row('other_secret', String.raw`\bglpat-[A-Za-z0-9_-]{20,}|\b[MNO][A-Za-z0-9]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b`),
  // Sentry DSN key, passwords on command lines.
  row('other_secret', String.raw`https://(?<v>[0-9a-f]{32})@[a-z0-9.-]*sentry\.io`),
  row(
    'other_secret',
    String.raw`(?:\bmysql(?:dump)?\b[^\n]*?\s-p|\bredis-cli\b[^\n]*?\s-a\s+|--requirepass["',\s]+|\bsshpass\s+-p\s*)(?<v>[^\s'"]{4,})`,
  ),
  // Session cookies; a password said in words ("the password is …", "Passwort …", "пароль: …").
  row(
    'other_secret',
    String.raw`\b(?:connect\.sid|sessionid|session_id|PHPSESSID|JSESSIONID|_session|laravel_session)=(?<v>[^;\s"']{16,})`,
  ),
  row(
    'other_secret',
    String.raw`(?:\b(?:password|passwort|mot de passe|contraseña|senha)|пароль|비밀번호|密码|パスワード)(?:\s+(?:is|ist|est|es|é|era|это)\s*[:：]?|\s*[:：])\s*["'«]?(?<v>(?=[^\s"'»]*[0-9!#$%^&*])(?=[^\s"'»]*[A-Za-z])[A-Za-z0-9!#%&*][^\s"'»]{5,})`,
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
  /public|publishable|key_?id|_id$|keyid|pk_|ttl|expir|header|name|type|length|file|path|url|endpoint|algorithm|prefix|count|size|limit|max|min|timeout|seconds|issuer|audience|field|scope|uri/i;

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

/** The secret spans of `text`, before overlaps are resolved. */
export function secretSpans(text: string): Array<{ type: string; start: number; end: number }> {
  const out: Array<{ type: string; start: number; end: number }> = [];
  for (const { type, re } of SECRET_ROWS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const [start, end] = m.indices?.groups?.v ?? m.indices![0];
      const value = text.slice(start, end);
      if (isPlaceholder(value)) continue;
      if (type === 'env_secret' && notACredential(value, m.groups?.k ?? '')) continue;
      out.push({ type, start, end });
    }
  }
  return out;
}
