// Privacy: finds secrets (API keys of the major providers, private keys, JWTs, passwords in URLs,
// basic auth, bearer tokens, secret config values) and personal data (e-mail, phone, card, IBAN,
// government ids, public IPs) in text, and replaces them with typed placeholders. In: text. Out:
// findings `{type, kind, start, end}` and the redacted text. Pure and synchronous: the server,
// `doctor`, `openclaw-rl redact` and bench:privacy share it.
import { SpanMemo } from './memo.ts';
import { secretSpans as readSecrets } from './secrets.ts';
import { personalSpans as readPersonal } from './personal.ts';

const memo = new SpanMemo({ secret: readSecrets, personal: readPersonal });
const secretSpans = (text: string) => memo.spans(text, 'secret');
const personalSpans = (text: string) => memo.spans(text, 'personal');

export type FindingKind = 'secret' | 'personal';

export interface Finding {
  type: string;
  kind: FindingKind;
  start: number;
  end: number;
}

/** True when `text` holds a secret (the secret rows only: cheap enough for every answer). */
export function hasSecret(text: string): boolean {
  return secretSpans(text).length > 0;
}

/**
 * `text` with every detected secret replaced by `[SECRET:type]` (personal data kept): what error
 * messages, session views and the dashboard show. Cheap (the secret rows only).
 */
export function redactSecrets(text: string): string {
  const kept: Finding[] = [];
  for (const f of [...secretSpans(text)].sort((x, y) => x.start - y.start)) {
    if (kept.length === 0 || f.start >= kept[kept.length - 1].end) kept.push({ ...f, kind: 'secret' }); // overlapping rows: the first wins
  }
  return kept.length === 0 ? text : new Redactor().redact(text, kept);
}

/** True when `text` holds personal data (e-mail, phone, card, IBAN, government id, public IP): privacy.mode strict. */
export function hasPersonalData(text: string): boolean {
  return personalSpans(text).length > 0;
}

/** Every finding in `text`, in order, without overlaps: secrets win over personal data, earlier rows over later, longer over shorter. */
export function detect(text: string): Finding[] {
  const all: Finding[] = [
    ...secretSpans(text).map((s) => ({ ...s, kind: 'secret' as const })),
    ...personalSpans(text).map((s) => ({ ...s, kind: 'personal' as const })),
  ];
  const kept: Finding[] = [];
  for (const f of all) if (!kept.some((k) => f.start < k.end && k.start < f.end)) kept.push(f);
  return kept.sort((a, b) => a.start - b.start);
}

/** The placeholder of a finding: `[SECRET:aws_access_key]`, `[EMAIL_1]` (numbered per value, so "send it to [EMAIL_1], not [EMAIL_2]" still reads). */
export class Redactor {
  private readonly numbers = new Map<string, number>();
  private readonly counts = new Map<string, number>();
  /** Numbered placeholder → the value it stands for (secrets are never numbered, so never restored). */
  private readonly values = new Map<string, string>();

  placeholder(f: Finding, value: string): string {
    if (f.kind === 'secret') return `[SECRET:${f.type}]`;
    const key = `${f.type}\u0000${value}`;
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = (this.counts.get(f.type) ?? 0) + 1;
      this.counts.set(f.type, n);
      this.numbers.set(key, n);
      this.values.set(`[${f.type.toUpperCase()}_${n}]`, value);
    }
    return `[${f.type.toUpperCase()}_${n}]`;
  }

  /** `text` (a judge's hint) with the numbered placeholders this redactor gave put back to their values. */
  restore(text: string): string {
    return text.replace(/\[[A-Z_]+_\d+\]/g, (p) => this.values.get(p) ?? p);
  }

  /** `text` with each finding replaced by its placeholder. */
  redact(text: string, findings: Finding[] = detect(text)): string {
    let out = '';
    let at = 0;
    for (const f of findings) {
      out += text.slice(at, f.start) + this.placeholder(f, text.slice(f.start, f.end));
      at = f.end;
    }
    return out + text.slice(at);
  }
}

/** One redactor per session (placeholders stay the same across its turns), the least recently used forgotten. */
export class SessionRedactors {
  private readonly bySession = new Map<string, Redactor>();
  constructor(private readonly capacity = 5000) {}

  for(sessionId: string): Redactor {
    let r = this.bySession.get(sessionId);
    if (r !== undefined) this.bySession.delete(sessionId);
    else r = new Redactor();
    this.bySession.set(sessionId, r);
    if (this.bySession.size > this.capacity) this.bySession.delete(this.bySession.keys().next().value!);
    return r;
  }

  /** Drops a session's placeholder table (it holds the secrets' values): openclaw-rl forget. */
  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}

/** True when `baseUrl` names one of `localHosts` (a judge there reads unredacted text). */
export function isLocalUrl(baseUrl: string, localHosts: readonly string[]): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return localHosts.some((h) => h.replace(/^\[|\]$/g, '') === host);
}
