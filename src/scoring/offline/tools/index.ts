// The offline judge's reader of tool outputs. Agents mostly see tool results, so this is most of
// the default setup's training signal. Each parser knows one family of formats (test runners,
// compilers, HTTP/JSON APIs, SQL clients, git, package managers, deploy tools, the shell,
// informational output) and gives a verdict or nothing, plus the fix the output states. Then:
//   any failure → −1 (a summary that says "1 failed, 41 passed" fails);
//   else any success → +1; else information only (clean tree, version, empty list) → 0;
//   nothing recognised → the old keyword reading (error words → −1, anything else → +1).
// Hints come only from failures, and from a successful build's warning `help:` line.

import { RUNNER_PARSERS } from './runners.ts';
import { SERVICE_PARSERS } from './services.ts';
import type { ToolFinding } from './types.ts';

export type { ToolFinding } from './types.ts';

/** What the reader concluded about one tool output. */
export interface ToolReading {
  score: 1 | 0 | -1;
  hint: string | null;
  cues: string[];
}

const TOOL_ERROR_EN =
  /(\b(error|exception|traceback|fatal|panic|failed|failure|denied|segmentation fault|command not found|no such file|connection refused|unauthorized|forbidden|not found)\b|\bERR!|^FAIL\b|exit(ed)?( with)? (code|status)[:= ]*[1-9]\d*)/im;
/** Exception class names such as ValueError or NullPointerException (case-sensitive on purpose). */
const TOOL_ERROR_CLASS = /\b[A-Z][A-Za-z]*(Error|Exception)\b/;
const TOOL_ERROR_ZH = /(错误|失败|异常|エラー|失敗)/;
// "0 errors", "no errors" and "without error" are reports of success, not failures.
const BENIGN_ERROR = /\b(0|no|zero|without)\s+(errors?|failures?|exceptions?)\b/gi;

/** A `{"exit_code": N, "stdout": …, "stderr": …}` wrapper: the code and the text inside. */
function unwrap(text: string): { text: string; exit: number | null } {
  if (!/^\s*\{/.test(text) || !/"(?:exit_?code|returncode)"/.test(text)) return { text, exit: null };
  try {
    // A raw line break inside a JSON string (logs often unescape them) is read as an escaped one.
    const o = JSON.parse(text.replace(/\n/g, '\\n')) as Record<string, unknown>;
    const exit = Number(o.exit_code ?? o.exitCode ?? o.returncode);
    const parts = [o.stdout, o.stderr, o.output].filter((p): p is string => typeof p === 'string');
    return { text: parts.join('\n').trim(), exit: Number.isFinite(exit) ? exit : null };
  } catch {
    return { text, exit: null };
  }
}

/**
 * The fix a failing output states in words no parser owns, quoted: "Did you mean --out-dir?", a
 * command shown on its own indented line after "…, use" / "run:", npm's "retry this command
 * with …" (its `npm ERR!` prefixes and line wrap removed).
 */
export function statedFix(lines: string[]): string | null {
  const plain = lines.map((l) => l.replace(/^npm (?:ERR!|error)\s?/, ''));
  for (const line of plain) {
    const mean = /\b[Dd]id you mean\b[^?]*\?/.exec(line);
    if (mean !== null) return mean[0].trim();
  }
  for (let i = 0; i + 1 < plain.length; i++) {
    if (/\b(?:use|run|try|with)\s*:?\s*$/i.test(plain[i]) && /^\s{2,}\S/.test(lines[i + 1])) return plain[i + 1].trim();
  }
  const retry = /\b(retry|try again|re-?run)\b[^.]*?\bwith\b.+?(?=\s+to\s|[.;]\s|[.;]?$)/i.exec(plain.join(' '));
  if (retry !== null) return retry[0].replace(/\s+/g, ' ').trim();
  return null;
}

/** Reads a tool's output (plain text). */
export function readToolOutput(raw: string): ToolReading {
  const { text, exit } = unwrap(raw);
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const found: ToolFinding[] = [];
  for (const parse of [...RUNNER_PARSERS, ...SERVICE_PARSERS]) found.push(...parse(text, lines));
  if (exit !== null && exit !== 0) found.push({ score: -1, hint: null, cue: `exit ${exit}` });
  const failures = found.filter((f) => f.score === -1);
  const cues = found.map((f) => f.cue);
  if (failures.length > 0) return { score: -1, hint: failures.find((f) => f.hint !== null)?.hint ?? statedFix(lines), cues };
  const successes = found.filter((f) => f.score === 1);
  if (successes.length > 0) return { score: 1, hint: successes.find((f) => f.hint !== null)?.hint ?? null, cues };
  if (found.length > 0) return { score: 0, hint: null, cues };
  // Nothing recognised: error words say it failed; other output is taken as done.
  const cleaned = text.replace(BENIGN_ERROR, '');
  const hit = TOOL_ERROR_EN.exec(cleaned) ?? TOOL_ERROR_CLASS.exec(cleaned) ?? TOOL_ERROR_ZH.exec(cleaned);
  if (hit !== null) return { score: -1, hint: statedFix(lines), cues: [`tool_error:"${hit[0]}"`] };
  if (exit === 0 && lines.length === 0) return { score: 0, hint: null, cues: ['empty output'] };
  return { score: 1, hint: null, cues: ['tool_ok'] };
}
