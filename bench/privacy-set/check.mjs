// Validates privacy-set JSONL files. Usage: node check.mjs dev-1.jsonl heldout-1.jsonl
import { readFileSync } from 'node:fs';

const TYPES = new Set([
  'openai_key',
  'anthropic_key',
  'aws_access_key',
  'aws_secret_key',
  'gcp_api_key',
  'gcp_service_account_key',
  'github_token',
  'slack_token',
  'slack_webhook',
  'stripe_key',
  'private_key',
  'jwt',
  'password_in_url',
  'basic_auth',
  'bearer_token',
  'env_secret',
  'npm_token',
  'huggingface_token',
  'telegram_bot_token',
  'twilio_key',
  'sendgrid_key',
  'other_secret',
  'email',
  'phone',
  'card_number',
  'iban',
  'gov_id',
  'ip_address',
  'street_address',
  'person_name',
]);
const SOURCES = new Set(['chat', 'tool_output', 'code', 'config', 'log', 'email', 'web_page', 'api_json', 'calendar', 'messaging']);

const luhn = (s) => {
  const d = s.replace(/[ -]/g, '');
  if (!/^\d{13,19}$/.test(d)) return false;
  let sum = 0;
  [...d].reverse().forEach((c, i) => {
    let x = +c;
    if (i % 2) {
      x *= 2;
      if (x > 9) x -= 9;
    }
    sum += x;
  });
  return sum % 10 === 0;
};
const ibanOk = (s) => {
  const t = s.replace(/ /g, '');
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test(t)) return false;
  const r = (t.slice(4) + t.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let m = 0;
  for (const ch of r) m = (m * 10 + +ch) % 97;
  return m === 1;
};
const isPrivateV4 = (ip) => {
  const p = ip.split('.').map(Number);
  return (
    p[0] === 10 ||
    p[0] === 127 ||
    (p[0] === 192 && p[1] === 168) ||
    (p[0] === 172 && p[1] >= 16 && p[1] <= 31) ||
    (p[0] === 100 && p[1] >= 64 && p[1] <= 127) ||
    (p[0] === 169 && p[1] === 254) ||
    (p[0] === 192 && p[1] === 0 && p[2] === 2) ||
    (p[0] === 198 && p[1] === 51 && p[2] === 100) ||
    (p[0] === 203 && p[1] === 0 && p[2] === 113)
  );
};
const SHAPE = {
  openai_key: /^sk-(proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}$/,
  anthropic_key: /^sk-ant-(api|admin)\d\d-[A-Za-z0-9_-]{80,}$/,
  aws_access_key: /^(AKIA|ASIA)[A-Z2-7]{16}$/,
  aws_secret_key: /^[A-Za-z0-9/+]{40}$/,
  gcp_api_key: /^AIza[A-Za-z0-9_-]{35}$/,
  gcp_service_account_key: /^-----BEGIN PRIVATE KEY-----(\\n|\n)[\s\S]+-----END PRIVATE KEY-----$/,
  github_token: /^(gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{70,})$/,
  slack_token: /^xox[bpoae]-[0-9A-Za-z-]{20,}$/,
  slack_webhook: /^https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]{24}$/,
  stripe_key: /^(sk|rk)_(live|test)_[A-Za-z0-9]{20,}$/,
  private_key: /^-----BEGIN [A-Z ]*PRIVATE KEY-----\n[\s\S]+\n-----END [A-Z ]*PRIVATE KEY-----$/,
  jwt: /^eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
  basic_auth: /^[A-Za-z0-9+/]+=*$/,
  npm_token: /^npm_[A-Za-z0-9]{36}$/,
  huggingface_token: /^hf_[A-Za-z]{34}$/,
  telegram_bot_token: /^\d{8,10}:[A-Za-z0-9_-]{35}$/,
  sendgrid_key: /^SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/,
  twilio_key: /^(SK[0-9a-f]{32}|[0-9a-f]{32})$/,
  email: /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i,
  huggingface: null,
};
let bad = 0;
const err = (f, n, m) => {
  bad++;
  console.error(`${f}:${n}: ${m}`);
};
for (const file of process.argv.slice(2)) {
  const ids = new Set();
  const byType = {};
  const bySrc = {};
  const byNeg = {};
  let npos = 0,
    nneg = 0,
    nf = 0,
    multi = 0;
  const lens = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const n = i + 1;
      if (!line.trim()) return;
      let o;
      try {
        o = JSON.parse(line);
      } catch (e) {
        return err(file, n, 'bad JSON ' + e.message);
      }
      const keys = Object.keys(o);
      for (const k of keys)
        if (!['id', 'source', 'text', 'findings', 'negative_kind', 'note'].includes(k)) err(file, n, 'unknown key ' + k);
      if (typeof o.id !== 'string' || ids.has(o.id)) err(file, n, 'missing/duplicate id ' + o.id);
      ids.add(o.id);
      if (!SOURCES.has(o.source)) err(file, n, 'bad source ' + o.source);
      if (typeof o.text !== 'string' || !o.text.length) err(file, n, 'empty text');
      if (!Array.isArray(o.findings)) return err(file, n, 'findings not array');
      if (o.findings.length && o.negative_kind !== null) err(file, n, 'positive with negative_kind');
      if (!o.findings.length && (typeof o.negative_kind !== 'string' || !o.negative_kind)) err(file, n, 'negative without negative_kind');
      lens.push(o.text.split('\n').length);
      const spans = [...o.findings].sort((a, b) => a.start - b.start);
      spans.forEach((f, j) => {
        if (!TYPES.has(f.type)) err(file, n, 'bad type ' + f.type);
        if (!Number.isInteger(f.start) || !Number.isInteger(f.end) || f.start < 0 || f.end > o.text.length || f.start >= f.end)
          return err(file, n, `bad span ${f.start}-${f.end}`);
        if (j && spans[j - 1].end > f.start) err(file, n, `overlap ${spans[j - 1].start}-${spans[j - 1].end} / ${f.start}-${f.end}`);
        const v = o.text.slice(f.start, f.end);
        if (v !== v.trim()) err(file, n, `span has outer whitespace: ${JSON.stringify(v)}`);
        const re = SHAPE[f.type];
        if (re && !re.test(v)) err(file, n, `${f.type} shape mismatch: ${JSON.stringify(v.slice(0, 80))}`);
        if (f.type === 'card_number' && !luhn(v)) err(file, n, 'card fails Luhn ' + v);
        if (f.type === 'iban' && !ibanOk(v)) err(file, n, 'iban checksum ' + v);
        if (f.type === 'ip_address') {
          if (v.includes('.') && (!/^\d+\.\d+\.\d+\.\d+$/.test(v) || isPrivateV4(v))) err(file, n, 'ip not public v4 ' + v);
          if (v.includes(':') && (!/^[0-9a-f:]+$/i.test(v) || /^2001:db8/i.test(v))) err(file, n, 'bad ipv6 ' + v);
        }
        if (f.type === 'phone' && (v.replace(/\D/g, '').length < 7 || !/^[+(\d]/.test(v))) err(file, n, 'phone shape ' + v);
        byType[f.type] = (byType[f.type] || 0) + 1;
        nf++;
      });
      if (new Set(o.findings.map((f) => f.type)).size >= 2) multi++;
      if (o.findings.length) npos++;
      else {
        nneg++;
        byNeg[o.negative_kind] = (byNeg[o.negative_kind] || 0) + 1;
      }
      bySrc[o.source] = (bySrc[o.source] || 0) + 1;
    });
  const sort = (m) => Object.fromEntries(Object.entries(m).sort((a, b) => b[1] - a[1]));
  console.log(
    `\n== ${file}: ${ids.size} items, ${npos} positive, ${nneg} negative, ${nf} findings, ${multi} items with >=2 finding types, lines min/max ${Math.min(...lens)}/${Math.max(...lens)}`,
  );
  console.log('per type:', JSON.stringify(sort(byType)));
  console.log('per source:', JSON.stringify(sort(bySrc)));
  console.log('per negative_kind:', JSON.stringify(sort(byNeg)));
}
if (bad) {
  console.error(`\n${bad} problem(s)`);
  process.exit(1);
} else console.log('\nOK: no problems');
