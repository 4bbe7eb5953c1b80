// The offline judge's reader of tool outputs. Agents mostly see tool results, so this is most of
// the default setup's training signal. Each parser knows one family of formats (test runners,
// compilers, HTTP/JSON APIs, SQL clients, git, package managers, deploy tools, the shell,
// informational output) and gives a verdict or nothing, plus the fix the output states. Then:
//   any failure → −1 (a summary that says "1 failed, 41 passed" fails);
//   else a dry run ("(DRY RUN)", "(dry run)", "[dry-run]") → 0, it only previews;
//   else any success → +1; else information only (clean tree, version, empty list) → 0;
//   nothing recognised → the old keyword reading (error words → −1, anything else → +1).
// Hints come only from failures: the parsers' stated fix, never retry advice.

import { toolConfidence } from '../confidence.ts';
import { ASSISTANT_PARSERS } from './assistant.ts';
import { RUNNER_PARSERS } from './runners.ts';
import { NPM_PREFIX, SERVICE_PARSERS } from './services.ts';
import type { ToolFinding } from './types.ts';

export type { ToolFinding } from './types.ts';

/** What the reader concluded about one tool output. */
export interface ToolReading {
  score: 1 | 0 | -1;
  hint: string | null;
  cues: string[];
}

const TOOL_ERROR_EN =
  /(\b(error|exception|traceback|fatal|panic|failed|failure|denied|segmentation fault|command not found|no such file|connection refused|unauthorized|forbidden|not found)\b|\bERR!|^FAIL\b|\bRun `[^`\n]+` to fix\b|^go: [^\n]*\b(?:needed|cannot|missing|malformed|invalid)\b|exit(ed)?( with)? (code|status)[:= ]*[1-9]\d*|^make(\[\d+\])?: \*\*\*|\bno rule to make target\b|\bno available formula\b)/im;
/** A line by which an output no parser knows reports work done ("Done in 3.2s", "Successfully built", "已保存"). */
const SUCCESS_LINE =
  /^[ \t]*(?:✨\s*)?(?:done|success(?:fully)?\b|succeeded|finished|completed?|saved|wrote|built|deployed|upgraded|installed|uploaded|published|applied)\b|\ball (?:checks|tests) passed\b|"(?:ok|success)"\s*:\s*true|成功|已保存|完成|完了/im;
/** A `$` prompt line that compiles or builds. */
const BUILD_COMMAND =
  /^\$ (?:\S+=\S+ )*(?:gcc|g\+\+|cc|clang\+?\+?|rustc|javac|go build|cargo build|dotnet build|mvn (?:package|compile|install)|gradle build|\.\/gradlew build)\b/m;
/** A log line's leading date and time: "[2024-07-01 08:14:02] ", "2024/05/02 11:20:03 ", "2024-05-02T11:20:03Z ". */
const LOG_STAMP = /^[ \t]*\[?\d{4}[-/]\d{2}[-/]\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?\s+/;
const DRY_RUN = /\((?:DRY RUN|dry run|server dry run)\)\s*$|^\[dry[- ]run\]|^\s*DRY[- ]RUN\b|\bno changes (?:were )?made\b/im;
/** Exception class names such as ValueError or NullPointerException (case-sensitive on purpose). */
const TOOL_ERROR_CLASS = /\b[A-Z][A-Za-z]*(Error|Exception)\b/;
const TOOL_ERROR_ZH = /(错误|失败|异常|エラー|失敗)/;
// "0 errors", "no errors" and "without error" are reports of success, not failures.
const BENIGN_ERROR = /\b(0|no|zero|without)\s+(errors?|failures?|exceptions?)\b/gi;

/** A `{"exit_code": N, "stdout": …, "stderr": …}` wrapper: the code and the text inside. */
export function unwrap(text: string): { text: string; exit: number | null } {
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
 * The fix a failing output states in words no parser owns, quoted: the suggestion under a bare
 * "Did you mean this?", "Did you mean --out-dir?", "Did you forget to import 'json'?", a command
 * shown on its own indented line after "…, use" / "run:" / "to add it:", npm's "retry this
 * command with …" (its `npm ERR!` prefixes and line wrap removed).
 */
export function statedFix(lines: string[], blankBefore: ReadonlySet<number> = new Set()): string | null {
  // Terraform frames its diagnostics with "│ ".
  const plain = lines.map((l) => l.replace(NPM_PREFIX, '').replace(/^[│┃]\s?/, ''));
  // ShellCheck's rule under the marked word: "^--^ SC2086 (info): Double quote to prevent globbing
  // and word splitting." The rule, not its "Did you mean:" rewrite of the one line.
  const shellcheck = plain.map((l) => /\^-*\^? SC\d{4}(?: \(\w+\))?: (.+?)\.?\s*$/.exec(l)).find((m) => m !== null);
  if (shellcheck != null) return shellcheck[1];
  for (let i = 0; i + 1 < plain.length; i++) {
    // The question alone on its line, the suggestion on the next: Ubuntu's "Command 'pyhton' not
    // found, did you mean:" (without the package's version), npm's "Did you mean
    // this?" then "    npm test # Test the project".
    if (/\bdid you mean(?: this| one of these)?\s*[?:]?\s*$/i.test(plain[i]) && plain[i + 1].trim() !== '')
      return plain[i + 1].trim().replace(/^(command '[^']+' from (?:deb|snap) \S+) \(.*\)$/, '$1');
  }
  for (let i = 0; i + 1 < plain.length; i++) {
    // A command on its own indented line after "…, use" / "run:" / Go's "…; to add it:": the
    // command to run says more than a question about a name (brew's "Did you mean python?" above
    // "To install python@3.12, run:" and the command).
    // ("You can migrate … with:" offers something else; it is not the fix.)
    if (
      /(?:\b(?:use|run|try|with)\s*:?|\bto \w+ it:)\s*$/i.test(plain[i]) &&
      !/^\s*you can\b/i.test(plain[i]) &&
      /^(?:\s{2,}|\t)\S/.test(plain[i + 1])
    )
      return plain[i + 1].trim();
  }
  for (const line of plain) {
    // "Did you mean 'length'?", Python's "Did you forget to import 'json'?".
    const mean = /\b[Dd]id you (?:mean|forget)\b[^?]*\?/.exec(line);
    if (mean !== null) return mean[0].trim();
  }
  const joined = plain.join(' ').replace(/\s+/g, ' ');
  const retry = /\b(retry|try again|re-?run)\b[^.]*?\bwith\b.+?(?=\s+to\s|[.;]\s|[.;]?$)/i.exec(joined);
  if (retry !== null) return retry[0].trim();
  // PyTorch's "… try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation".
  const setting = /\btry setting [\w.-]+=\S*[^\s.,;]/i.exec(joined);
  if (setting !== null) return setting[0];
  // dpkg's "you must manually run 'sudo dpkg --configure -a' to correct the problem": the command.
  const mustRun = /\byou must (?:manually )?run '([^']+)'/i.exec(joined);
  if (mustRun !== null) return mustRun[1];
  // Yarn's "Corepack must currently be enabled by running corepack enable in your terminal.": the command.
  const byRunning = /\bby running [`"']?([^`"'\n.]+?)[`"']? in your (?:terminal|shell)\b/i.exec(joined);
  if (byRunning !== null) return byRunning[1];
  // Prisma's 'Please run "prisma generate" and try to import it again.': the command, with its verb.
  const runQuoted = /\b[Rr]un ([`"'])([^`"'\n]{2,60})\1/.exec(joined);
  if (runQuoted !== null) return `run ${runQuoted[1]}${runQuoted[2]}${runQuoted[1]}`;
  // docker's "You have to remove (or rename) that container to be able to reuse that name.": what to do, not why.
  const haveTo = /\bYou have to [^.]*?(?=\s+(?:to be able to|in order to)\b|\.)/.exec(joined);
  if (haveTo !== null) return haveTo[0];
  // Terraform's 'The argument "bucket" is required, but no definition was found.': the requirement.
  const required = /\bThe (?:argument|attribute|field|property|parameter|option) "[\w.-]+" is required\b/.exec(joined);
  if (required !== null) return required[0];
  // The name after "Missing required …" is quoted or follows a colon ("Missing required argument"
  // then "on main.tf line 8" names none).
  const missing =
    /\bmissing required (?:field|param(?:eter)?|property|argument|option)s?(?::\s*['"`]?[\w.-]+['"`]?|\s+['"`][\w.-]+['"`])/i.exec(joined);
  if (missing !== null) return missing[0];
  // "…; set DB_PORT=5432 to fix": the action the output names as the fix.
  const toFix = /\b((?:set|use|run|pass|export|install)\s+[^;.,\s][^;,]*?)\s+to fix\b/i.exec(joined);
  if (toFix !== null) return toFix[1];
  // Python's SyntaxError naming the token to close or add: "'(' was never closed", "expected ':'",
  // or its guess after "invalid syntax.": "Perhaps you forgot a comma?", "Maybe you meant '==' …?".
  const syntax = plain
    .map((l) =>
      /^\s*SyntaxError: (?:('.{1,3}' was never closed|unmatched '.{1,3}'|expected '.{1,3}')|[^.\n]*\.\s+((?:Perhaps|Maybe) you [^?\n]*\?))$/.exec(
        l,
      ),
    )
    .find((m) => m !== null);
  if (syntax != null) return syntax[1] ?? syntax[2];
  // A usage line printed with the failure says how the command is called: "usage: ./run.sh <dev|prod>".
  const usage = plain.find((l) => /^\s*usage:\s+\S/i.test(l));
  if (usage !== undefined) return usage.trim();
  // A sentence that tells the reader what to do: "Please select a different name and try again.",
  // "Grant the role 'roles/run.admin' to the service account.", up to its first comma (a dot
  // inside a name does not end it).
  const advice = ADVICE.exec(joined) ?? paragraphAdvice(lines, blankBefore);
  // CMake's "Add the installation prefix of "fmt" to CMAKE_PREFIX_PATH or set "fmt_DIR" to …": the first fix.
  // What to do, not how to find the way or what to do after: "… using one of the "Alternative
  // Installs" from: <url>", "… then retry".
  return advice !== null
    ? advice[1]
        .replace(/\s+or\s+(?:set|use|run|try|add|pass)\b.*$/, '')
        .replace(/\s+(?:using one of|then retry)\b.*$/, '')
        .trim()
    : null;
}

const ADVICE_VERB = '(?:[Pp]lease|Grant|Resolve|Fix|Either|Run|Use|Install|Set|Add|Remove|Make sure|Ensure|Enable|Consider|Check that)\\b';
const ADVICE = new RegExp(`(?:^|[.:;!]\\s+)(${ADVICE_VERB}(?:[^.,;]|\\.(?=\\S))*)`);

/**
 * Advice that opens a paragraph of its own (a blank line before it) after a line that ends
 * without a stop, such as CMake's list of file names: "fmt-config.cmake", a blank line, then "Add
 * the installation prefix of …". Lines are joined from there on.
 */
function paragraphAdvice(lines: string[], blankBefore: ReadonlySet<number>): RegExpExecArray | null {
  for (const i of blankBefore) {
    if (i <= 0 || i >= lines.length || !new RegExp(`^${ADVICE_VERB}`).test(lines[i].trim())) continue;
    const m = ADVICE.exec(lines.slice(i).join(' ').replace(/\s+/g, ' ').trim());
    if (m !== null) return m;
  }
  return null;
}

/**
 * Whether an output only shows data: a table (columns two spaces apart), an `ls -l` listing, a
 * JSON value, `key: value` / `key = value` lines, a bare number, path or URL, a `[1] 4821` job line.
 */
function looksLikeData(text: string, lines: string[]): boolean {
  const t = text.trim();
  if (lines.length === 0) return true;
  if (/^[{[]/.test(t)) return true;
  if (/^total \d+$/m.test(t)) return true;
  const columns = lines.filter((l) => (l.trim().match(/\S\s{2,}(?=\S)/g) ?? []).length >= 2 || /\s[|│]\s/.test(l));
  if (columns.length >= Math.ceil(lines.length / 2)) return true;
  // Several lines, each with aligned fields (`ps`, an object listing) or one file name each (`ls`).
  if (lines.length >= 2 && lines.every((l) => /\S\s{2,}\S/.test(l.trim()) || /^\s*[\w.-]+\.\w{1,5}$/.test(l))) return true;
  // `crontab -l`: schedule lines ("15 2 * * * /opt/x.sh", "@reboot …") and comments.
  const cron = /^\s*(?:(?:[\d*/,-]+\s+){5}\S|@(?:reboot|hourly|daily|weekly|monthly|yearly)\s+\S)/;
  if (lines.some((l) => cron.test(l)) && lines.every((l) => cron.test(l) || /^\s*#/.test(l))) return true;
  const values = lines.filter((l) =>
    /^\s*(?:[\w.\- ]{1,40}:\s+\S|[\w.-]+\s*=\s*\S|\d[\d,.]*(?:\s+\S+)?$|[\w+]+:\/\/\S+$|[~.]?\/\S*$|\[\d+\] \d+$|#\s)/.test(l),
  );
  return values.length === lines.length;
}

// "Retry after 30 seconds", "Please try again later", "Retry-After: 120": waiting is not a fix of
// the answer, so it is never a hint (a retry with a changed flag, "retry with --force", is).
const RETRY_ADVICE =
  /^(?:retry-after:?\s*\d+|(?:please )?(?:retry|try again|wait)(?: this request| the request| your request)?(?: (?:later|shortly|soon|in a (?:few|moment|bit|while)\b.*|after\b.*|in \d+.*))?|(?:please )?(?:slow down|wait (?:a (?:moment|minute|few \w+)|\d+.*)))\.?$/i;

/** Whether a stated fix only says to wait and try again. */
export function isRetryAdvice(hint: string): boolean {
  return RETRY_ADVICE.test(hint.trim());
}

/** A stated fix as the hint: none when it only says to wait. */
function fixOrNull(hint: string | null): string | null {
  return hint === null || isRetryAdvice(hint) ? null : hint;
}

// A tool call that only reads: by its name ("web_search", "calendar.list_events", "get_weather")
// or by the sentence that says what was done ("Searched …", "Looked up …", "Checked the status
// of …"). What it returns is information, not a success of the answer; a failure still fails.
const LOOKUP_NAME = /(?:^|[._-])(?:search|lookup|list|get|find|fetch|read|query|status|view|browse|open)(?:$|[._-])/i;
const LOOKUP_SENTENCE =
  /^(?:[\w -]{1,30}(?:API|tool|Browser)\s*:\s*|(?:the )?assistant\s+|user [^;]{0,60}; )?(?:searched|looked up|checked (?!out\b)(?:the )?(?:status|availability|weather|balance|inbox|opening|open|price|remaining|whether|if)|listed|fetched|queried|read (?!back)|viewed|browsed|opened (?:the )?[^,;]{0,40}(?:page|site|website|status)|called the weather)\b/i;

/** Whether the turn's tools only looked something up. */
function isLookup(context: { action?: string; toolCalls?: string[] }): boolean {
  const names = context.toolCalls ?? [];
  if (names.length > 0) return names.every((n) => LOOKUP_NAME.test(n));
  return LOOKUP_SENTENCE.test((context.action ?? '').trim());
}

/** `readToolOutput`, with its confidence (../confidence.ts): what `judge.min_confidence` compares. */
export function judgeToolOutput(
  raw: string,
  context: { action?: string; toolCalls?: string[] } = {},
): ToolReading & { confidence: number; doubts: string[] } {
  let reading = readToolOutput(raw);
  if (reading.score === 1 && isLookup(context)) reading = { score: 0, hint: null, cues: [...reading.cues, 'lookup: information'] };
  const c = toolConfidence(raw, reading.cues, reading.score);
  return { ...reading, confidence: c.value, doubts: c.doubts };
}

/** Reads a tool's output (plain text) by the parsers (see the file comment). */
export function readToolOutput(raw: string): ToolReading {
  const { text, exit } = unwrap(raw);
  const all = text.split('\n');
  const lines = all.filter((l) => l.trim() !== '');
  // The indexes (in `lines`) of lines that follow a blank line: where a paragraph starts.
  const blankBefore = new Set<number>();
  let n = 0;
  all.forEach((line, i) => {
    if (line.trim() === '') return;
    if (i > 0 && all[i - 1].trim() === '') blankBefore.add(n);
    n++;
  });
  const found: ToolFinding[] = [];
  for (const parse of [...RUNNER_PARSERS, ...SERVICE_PARSERS, ...ASSISTANT_PARSERS]) found.push(...parse(text, lines));
  if (exit !== null && exit !== 0) found.push({ score: -1, hint: null, cue: `exit ${exit}` });
  const failures = found.filter((f) => f.score === -1);
  const cues = found.map((f) => f.cue);
  if (failures.length > 0) {
    const hint = failures.find((f) => f.hint !== null)?.hint ?? statedFix(lines, blankBefore);
    return { score: -1, hint: fixOrNull(hint), cues };
  }
  // A dry run previews: rsync's "(DRY RUN)", kubectl's "(dry run)", a script's "[dry-run]" lines.
  const dryRun = DRY_RUN.test(text);
  if (dryRun && found.length > 0) return { score: 0, hint: null, cues: [...cues, 'dry run'] };
  const successes = found.filter((f) => f.score === 1);
  // A success carries no fix: a warning's `help:` on a build that passed is advice, and no
  // independent writer gives a hint on a tool output that worked (eight sets, 0 of 230).
  if (successes.length > 0) return { score: 1, hint: null, cues };
  if (found.length > 0) return { score: 0, hint: null, cues };
  // Nothing recognised: error words say it failed; other output is taken as done.
  const cleaned = text.replace(BENIGN_ERROR, '');
  const hit = TOOL_ERROR_EN.exec(cleaned) ?? TOOL_ERROR_CLASS.exec(cleaned) ?? TOOL_ERROR_ZH.exec(cleaned);
  if (hit !== null) {
    const hint = statedFix(lines, blankBefore);
    return { score: -1, hint: fixOrNull(hint), cues: [`tool_error:"${hit[0]}"`] };
  }
  if (dryRun) return { score: 0, hint: null, cues: ['dry run'] };
  if (exit === 0 && lines.length === 0) return { score: 0, hint: null, cues: ['empty output'] };
  // A shell transcript whose `$` line builds something ("$ gcc -o wc main.c && ./wc in.txt", "$ go
  // build -o bin/app ./cmd/app && ls -la bin/"), with no error after it: the build worked, whatever
  // data the rest shows.
  if (BUILD_COMMAND.test(text)) return { score: 1, hint: null, cues: ['build command ran'] };
  // A program's timestamped log ("[2024-07-01 08:14:05] wrote out/a.csv", "2024/05/02 11:20:03
  // listening on :8080"): a line that reports work done is a success; otherwise a log tailed is
  // information.
  if (lines.length > 0 && lines.every((l) => LOG_STAMP.test(l))) {
    const done = SUCCESS_LINE.test(lines.map((l) => l.replace(LOG_STAMP, '')).join('\n'));
    return done ? { score: 1, hint: null, cues: ['log: done'] } : { score: 0, hint: null, cues: ['log lines'] };
  }
  // Output that says it did something is a success; a listing, a table or a bare value is
  // information; other output (a program's own words) is taken as done.
  if (looksLikeData(text, lines) && !SUCCESS_LINE.test(cleaned)) return { score: 0, hint: null, cues: ['information'] };
  return { score: 1, hint: null, cues: ['tool_ok'] };
}
