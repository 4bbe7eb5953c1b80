// Test runners and compilers: their summaries say how many failed, whatever words sit next to it
// ("1 failed, 41 passed" is a failure), and their diagnostics say what to change (`help:` lines,
// "did you mean", a test's expected value).

import { cleanHint, finding, type ToolFinding, type ToolParser } from './types.ts';

const count = (text: string, re: RegExp): number => {
  let n = 0;
  for (const m of text.matchAll(re)) n += Number(m[1]);
  return n;
};

/**
 * The assertion pytest shows for a failing test: its source line (`>       assert resp.status == 201`),
 * else the `E   assert …` line, else the short summary's `FAILED t.py::x - assert …` (the values alone
 * say less than the line that compares them).
 */
function pytestAssertion(text: string): string | null {
  const m =
    /^>\s+(assert\b.+)$/m.exec(text) ?? /^E\s+(assert\b.+)$/m.exec(text) ?? /^FAILED \S+ - (?:AssertionError: )?(assert\b.+)$/m.exec(text);
  return m !== null ? cleanHint(m[1]) : null;
}

/**
 * A test's stated expected value, as the runner prints it: pytest's failing assertion, JUnit
 * `expected: <10.50> but was: <10.5>`, jest/vitest/RSpec `Expected: 90`, go `want 90`, chai
 * `expected 45 to be 40`, cargo `right: 90`.
 */
function expectedValue(text: string): string | null {
  const py = pytestAssertion(text);
  if (py !== null) return py;
  const junit = /\bexpected:\s*<[^>\n]*>\s+but was:\s*<[^>\n]*>/.exec(text);
  if (junit !== null) return junit[0];
  const jest = /^[ \t]*Expected(?: value)?:\s*(.+)$/im.exec(text);
  if (jest !== null) return cleanHint(`expected ${jest[1]}`);
  const go = /(?:\bgot\b|=)\s*.+?,?\s+want\s+(.+)$/im.exec(text);
  if (go !== null) return cleanHint(`want ${go[1]}`);
  // chai's whole sentence: the value the test got is half of what it says.
  const chai = /\bexpected\s+.+?\s+to\s+(?:equal|be|deeply equal)\s+.+$/im.exec(text);
  if (chai !== null) return cleanHint(chai[0].replace(/\s*\/\/.*$/, ''));
  const cargo = /^[ \t]*right:\s*(.+)$/m.exec(text);
  if (cargo !== null && /assertion.*left == right/.test(text)) return cleanHint(`expected ${cargo[1]}`);
  return null;
}

/**
 * Other runners' count lines: dotnet "Failed: 0, Passed: 57, …", minitest "130 runs, 412
 * assertions, 0 failures, 0 errors", gradle "12 tests completed, 2 failed", maven "Tests run: 47,
 * Failures: 1, Errors: 0": failures by count, on the last such line (maven prints one per class,
 * then the total).
 */
function otherSummaries(text: string): ToolFinding[] {
  // "Running 118 tests in a single process" announces a run; it counts nothing yet.
  const lines = text.matchAll(
    /^(?![ \t]*(?:\[\w+\][ \t]*)?Running\b).*\b(?:\d+ (?:runs?|tests?|examples?|assertions?|passed)|(?:Passed|Total|Tests run):\s*\d+)\b.*$/gim,
  );
  const line = [...lines].at(-1);
  if (line === undefined) return [];
  const bad = count(line[0], /(\d+) (?:failed|failures?|errors?)\b/gi) + count(line[0], /\b(?:Failed|Failures|Errors):\s*(\d+)/g);
  const good = count(line[0], /(\d+) (?:runs?|tests?|examples?|passed)\b/gi) + count(line[0], /\b(?:Passed|Tests run):\s*(\d+)/g);
  if (bad > 0) return [finding(-1, `tests:"${line[0].trim().slice(0, 60)}"`, expectedValue(text))];
  return good > 0 ? [finding(1, `tests:"${line[0].trim().slice(0, 60)}"`)] : [];
}

/**
 * What a failing run says to do, as printed: jest's snapshot summary "Inspect your code changes or
 * run `npm test -- -u` to update them." (the command and what it does, without the alternative).
 */
function runToFix(text: string): string | null {
  const m = /\b[Rr]un `[^`\n]+` to [^.\n]+/.exec(text);
  return m !== null ? cleanHint(m[0]) : null;
}

/** A failing test's hint: the expected value it shows, else the command the run says to run. */
const testHint = (text: string): string | null => expectedValue(text) ?? runToFix(text);

const testRunners: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  // pytest: "=== 1 failed, 3 passed in 0.12s ===", "=== 3 passed in 0.1s ===". A run that tested
  // nothing ("no tests ran", "87 deselected", "collected 0 items") did not check what it was run for.
  const py = /^=+ (.*\b(?:passed|failed|errors?|no tests ran|deselected)\b.*) in [\d.]+s.*=+\s*$/m.exec(text);
  if (py !== null) {
    const bad = count(py[1], /(\d+) (?:failed|errors?)\b/g);
    const good = count(py[1], /(\d+) passed\b/g);
    if (bad > 0) out.push(finding(-1, `pytest:"${py[1]}"`, expectedValue(text)));
    else if (good > 0) out.push(finding(1, `pytest:"${py[1]}"`));
    else out.push(finding(-1, `pytest:"${py[1]}"`));
  }
  // jest: "No tests found, exiting with code 1".
  if (/^No tests found\b/m.test(text)) out.push(finding(-1, 'jest:no tests found'));
  // jest/vitest: "Tests:  1 failed, 41 passed, 42 total", "Tests  1 failed | 41 passed (42)".
  for (const m of text.matchAll(/^[ \t]*(?:Tests|Test Files|Test Suites):?\s+(.*)$/gm)) {
    const bad = count(m[1], /(\d+) failed\b/g);
    const good = count(m[1], /(\d+) passed\b/g);
    if (bad > 0) out.push(finding(-1, `jest:"${m[1].trim()}"`, testHint(text)));
    else if (good > 0) out.push(finding(1, `jest:"${m[1].trim()}"`));
  }
  // mocha: "  3 passing (20ms)" / "  1 failing"; a timeout says what async code must do.
  const failing = /^[ \t]*(\d+) failing\b/m.exec(text);
  const timeout = /\bFor async tests and hooks, (ensure .+?)\.(?:\s|$)/.exec(text);
  if (failing !== null && Number(failing[1]) > 0)
    out.push(finding(-1, `mocha:"${failing[0].trim()}"`, expectedValue(text) ?? (timeout !== null ? timeout[1] : null)));
  else if (/^[ \t]*\d+ passing\b/m.test(text)) out.push(finding(1, 'mocha:passing'));
  // go test: "--- FAIL: TestX", "FAIL\tpkg", "ok  \tpkg\t0.01s".
  if (/^(--- FAIL:|FAIL\s+\S+|FAIL$)/m.test(text)) out.push(finding(-1, 'go test:FAIL', expectedValue(text)));
  else if (/^ok\s+\S+\s+[\d.]+s/m.test(text) || /^PASS$/m.test(text)) out.push(finding(1, 'go test:ok'));
  // ctest: "100% tests passed, 0 tests failed out of 14".
  const ctest = /^\d+% tests passed, (\d+) tests? failed out of \d+/m.exec(text);
  if (ctest !== null) out.push(finding(ctest[1] === '0' ? 1 : -1, `ctest:"${ctest[0]}"`));
  // cargo test: "test result: FAILED. 3 passed; 1 failed" / "test result: ok. 4 passed; 0 failed".
  for (const m of text.matchAll(/^test result: (\w+)\. (.*)$/gm)) {
    const bad = count(m[2], /(\d+) failed\b/g);
    out.push(bad > 0 || m[1] !== 'ok' ? finding(-1, `cargo test:"${m[0]}"`, expectedValue(text)) : finding(1, `cargo test:"${m[0]}"`));
  }
  // Jest's per-file banners: "FAIL src/x.test.ts" / "PASS src/x.test.ts".
  if (/^[ \t]*FAIL\s+\S+\.(?:[jt]sx?|mjs|cjs)\b/m.test(text)) out.push(finding(-1, 'jest:FAIL', testHint(text)));
  else if (/^[ \t]*PASS\s+\S+/m.test(text)) out.push(finding(1, 'jest:PASS'));
  if (out.length === 0) out.push(...otherSummaries(text));
  return out;
};

/**
 * The fix a compiler states, as printed: rustc's `help:` (the suggested code line under it when it
 * shows one), gcc's `note: include …`, mypy's `note: Hint: "…"`, "Did you mean 'length'?", "did you
 * forget to '#include <stdint.h>'?".
 */
function compilerHint(lines: string[]): string | null {
  // A `help:` that shows code under it is the fix; else the first one (rustc's "= help: the trait
  // `Debug` is not implemented for `Order`" comes before "help: consider annotating …" and its code).
  let first: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    // rustc marks the span and may put the help on the same line: "^^^- help: try using …".
    const help = /(?:^[ \t]*(?:=\s*)?|\^+-*\s+)help:\s*(.+)$/.exec(lines[i]);
    // clippy's "= help: for further information visit <url>" points to the docs; it fixes nothing.
    if (help === null || /^for further information\b/i.test(help[1])) continue;
    const withCode = helpWithCode(lines, i, help[1]);
    if (withCode.code) return withCode.hint;
    first ??= withCode.hint;
  }
  if (first !== null) return first;
  for (const line of lines) {
    const include = /\bnote:\s*(include\s+.+?)(?:\s+or provide a declaration.*)?$/.exec(line);
    if (include !== null) return cleanHint(include[1]);
    const hint = /\bnote:\s*Hint:\s*(.+)$/.exec(line);
    if (hint !== null) return cleanHint(hint[1]);
    // swiftc's first note is its fix: "note: coalesce using '??' to provide a default when …".
    const swift = /\.swift:\d+:\d+: note: (.+)$/.exec(line);
    if (swift !== null) return cleanHint(swift[1]);
    const mean = /\b[Dd]id you (?:mean|forget)\b[^?]*\?/.exec(line);
    if (mean !== null) return mean[0];
    // tsc's "Try `npm i --save-dev @types/lodash` if it exists or add a new declaration …": the command.
    const tryCommand = /^\s*Try `([^`]+)`/.exec(line);
    if (tryCommand !== null) return tryCommand[1];
    // C#'s "… could not be found (are you missing a using directive or an assembly reference?)".
    // The question up to its alternative ("… or an assembly reference?" is dropped).
    const asks = /\((are you (?:missing|sure)\b[^()]*\?)\)/.exec(line);
    if (asks !== null) return asks[1].replace(/\s+or\s+[^?]*\?$/, '?');
  }
  return null;
}

/**
 * The requirement a diagnostic states after what is wrong: javac "unreported exception
 * IOException; must be caught or declared to be thrown".
 */
function statedRequirement(text: string): string | null {
  const m = /\berror:[^;\n]+;\s*((?:must|should|needs? to)\b[^;\n]*)$/m.exec(text);
  return m !== null ? cleanHint(m[1]) : null;
}

/**
 * A `help:` line, and the code rustc prints under it (after a bare `|` line) when it shows the fix
 * as code: "consider cloning the value: buf.clone()" (the sentence says why, the code what to
 * write). When rustc marks what it inserts (`++++` under the line), the expression it changes
 * stands for the code, not the whole line around it ("cfg.clone()", not "let server =
 * Server::new(cfg.clone());").
 */
function helpWithCode(lines: string[], at: number, help: string): { hint: string | null; code: boolean } {
  for (let i = at + 1; i < Math.min(lines.length, at + 3); i++) {
    // A line rustc adds whole is marked `+` in the gutter: "12 + #[derive(Debug)]".
    const added = /^[ \t]*\d+\s*\+\s+(\S.*?)\s*$/.exec(lines[i]);
    const code = added ?? /^[ \t]*\d+\s*\|\s+(\S.*?)\s*$/.exec(lines[i]);
    if (code !== null) {
      const expr = (added === null ? insertedExpression(lines[i], lines[i + 1]) : null) ?? code[1];
      return { hint: helpAndCode(help, expr, added !== null), code: true };
    }
    if (!/^[ \t]*\|\s*$/.test(lines[i])) break;
  }
  return { hint: similarName(help) ?? cleanHint(help), code: false };
}

/**
 * A help sentence with the code it shows ("consider cloning the value if the performance cost is
 * acceptable: cfg.clone()"); the code alone when the sentence only says what could be done ("you
 * can convert a `u64` to a `u32` and panic if …") or when the line it adds whole is quoted in it
 * ("consider annotating `Order` with `#[derive(Debug)]`").
 */
/**
 * "there is a crate or module with a similar name: `serde_json`": the name is the fix. (For "a
 * local variable with a similar name exists: `count`" four writers of five quote the whole help.)
 */
function similarName(help: string): string | null {
  return /^there is a (?:crate|module|crate or module) with a similar name: `([^`]+)`\s*$/.exec(help)?.[1] ?? null;
}

function helpAndCode(help: string, code: string, wholeLine: boolean): string {
  if (/^you (?:can|could|may)\b/i.test(help) || (wholeLine && help.includes(`\`${code}\``))) return code;
  return `${cleanHint(help) ?? help}: ${code}`;
}

/**
 * The expression rustc's suggestion changes: the text its `+` markers underline, with the names
 * and calls it attaches to ("buf" + ".clone()"), or null when the next line marks nothing.
 */
function insertedExpression(code: string, marks: string | undefined): string | null {
  const m = marks !== undefined ? /^([ \t]*\|[ \t]*)(\++)[ \t]*$/.exec(marks) : null;
  if (m === null) return null;
  const start = m[1].length;
  const end = start + m[2].length;
  if (code.length < end) return null;
  const chain = /(?:[\w.]|\(\))*/;
  const left = new RegExp(`${chain.source}$`).exec(code.slice(0, start))?.[0] ?? '';
  const right = new RegExp(`^${chain.source}`).exec(code.slice(end))?.[0] ?? '';
  const expr = `${left}${code.slice(start, end)}${right}`.trim();
  return expr.length >= 3 ? expr : null;
}

/**
 * The clause of a diagnostic that names the expected form, as printed: eslint "Expected '===' and
 * instead saw '=='", mypy `…; expected "Decimal"  [arg-type]`, pycodestyle "E302 expected 2 blank
 * lines, found 1", kubectl `got "integer", expected "string"; …`, javac/tsc "';' expected".
 */
function expectedClause(text: string): string | null {
  const token = /\berror(?: TS\d+)?:\s*('[^'\n]{1,10}' expected)\.?\s*$/m.exec(text);
  if (token !== null) return token[1];
  // A quoted token may hold the `;` that ends the clause elsewhere (gcc "expected ';' before '}' token").
  const named = /(?:\bgot "[^"\n]*", )?\b[Ee]xpected\s(?:'[^'\n]*'|"[^"\n]*"|[^;\n'"])*?(?=;|\s{2}|\s\[[\w-]+\]|\s*$)/m.exec(text);
  return named !== null ? cleanHint(named[0]) : null;
}

/** tsc's "Property 'email' is missing in type …": the missing field (the brief's "missing field" hint). */
function missingProperty(text: string): string | null {
  return /\bProperty '([^'\n]+)' is missing in type\b/.exec(text)?.[1] ?? null;
}

/**
 * A lint message's advice: the sentence after the one saying what is wrong ("React Hook useEffect
 * has a missing dependency: 'range'. Either include it or remove the dependency array").
 */
function lintAdvice(text: string, severity: RegExp): string | null {
  for (const m of text.matchAll(/^[ \t]*\d+:\d+[ \t]+(error|warning)[ \t]+(.*)$/gm)) {
    if (!severity.test(m[1])) continue;
    // The message, then two spaces and the rule's name.
    const sentences = m[2].split(/\s{2,}/)[0].split(/\.\s+/);
    if (sentences.length >= 2 && /^[A-Z].{5,}/.test(sentences[1])) return cleanHint(sentences[1]);
  }
  return null;
}

/**
 * A flake8/ruff diagnostic whose message is itself the rule to follow: "E722 Do not use bare
 * `except`", "B006 Do not use mutable data structures for argument defaults".
 */
function lintRule(text: string): string | null {
  const m = /^\S+:\d+:\d+: [A-Z]{1,3}\d{2,4}(?: \[\*\])? ((?:Do not|Don't|Avoid|Use|Remove|Replace|Prefer)\b.+)$/m.exec(text);
  return m !== null ? cleanHint(m[1]) : null;
}

/**
 * Formatters in check mode: prettier "[warn] Code style issues found in 2 files. Run Prettier with
 * --write to fix.", black "would reformat app.py", rustfmt/gofmt "Diff in …": the code is not
 * formatted (the run's own advice, when it gives one, is the fix).
 */
function formatters(text: string): ToolFinding[] {
  const prettier = /Code style issues (?:found|were found)\b[^.\n]*\.\s*(.*)$/m.exec(text);
  if (prettier !== null) return [finding(-1, 'prettier:issues', cleanHint(prettier[1]))];
  if (/^would reformat \S+|\bfiles? would be reformatted\b|^Diff in \S+/m.test(text)) return [finding(-1, 'formatter:would reformat')];
  if (/^All matched files use Prettier code style!|\bfiles? would be left unchanged\b/m.test(text)) return [finding(1, 'formatter:clean')];
  return [];
}

const compilers: ToolParser = (text, lines) => {
  const out: ToolFinding[] = [...formatters(text)];
  const hint = compilerHint(lines);
  // tsc: "src/a.ts(3,5): error TS2322: …", "src/a.ts:3:5 - error TS2322: …", "Found 2 errors".
  // rustc/cargo: "error[E0382]: …", "error: could not compile". gcc/clang: "a.c:3:5: error: …".
  // mypy: "a.py:3: error: … [arg-type]", "Found 2 errors in 1 file". eslint: "✖ 3 problems (3 errors, 0 warnings)".
  // flake8/pycodestyle/ruff: "app.py:52:1: E302 expected 2 blank lines" (any code is a finding).
  const diag =
    /^(?:\S+\(\d+,\d+\): error (?:TS|CS)\d+|\S+:\d+:\d+ - error TS\d+|error(?:\[E\d+\])?:|\S+:\d+(?::\d+)?: (?:fatal )?error:|[ \t]*\d+:\d+[ \t]+error\s|\S+\.go:\d+:\d+: |\S+:\d+:\d+: [A-Z]{1,3}\d{2,4}\b)/m.exec(
      text,
    );
  // ruff --fix: "Found 6 errors (6 fixed, 0 remaining)." is a clean run.
  const found = /^Found (\d+) errors?\b(?! \(\d+ fixed, 0 remaining\))/m.exec(text);
  if (/^Found \d+ errors? \(\d+ fixed, 0 remaining\)/m.test(text)) return [finding(1, 'linter: all fixed')];
  const eslint = /✖ \d+ problems? \((\d+) errors?/.exec(text);
  // ruff: "[*] 1 fixable with the `--fix` option."; eslint: "2 errors and 0 warnings potentially
  // fixable with the `--fix` option." Both name the command that fixes them.
  const fixable = /^\[\*\] \d+ fixable with the .+$|(?<=^\s*\d+ errors? and \d+ warnings? potentially )fixable with the .+$/m.exec(text);
  if (diag !== null || (found !== null && Number(found[1]) > 0) || (eslint !== null && Number(eslint[1]) > 0)) {
    const stated =
      hint ??
      (fixable !== null ? cleanHint(fixable[0]) : null) ??
      missingProperty(text) ??
      lintAdvice(text, /error/) ??
      lintRule(text) ??
      statedRequirement(text) ??
      expectedClause(text);
    out.push(finding(-1, `compiler:"${(diag ?? found ?? eslint)![0].trim()}"`, stated));
    return out;
  }
  // ShellCheck: "  ^--^ SC2086 (info): Double quote …" under the line; it exits 1 on any finding.
  const shellcheck = /^\s*\^-*\^? (SC\d{4}) \(\w+\):/m.exec(text);
  if (shellcheck !== null) return [...out, finding(-1, `shellcheck:${shellcheck[1]}`)];
  // eslint --max-warnings: "ESLint found too many warnings (maximum: 0)." fails on warnings alone.
  if (/^ESLint found too many warnings\b/m.test(text)) return [finding(-1, 'eslint:too many warnings', lintAdvice(text, /warning/))];
  if (/^Success: no issues found/m.test(text) || (found !== null && found[1] === '0')) out.push(finding(1, 'type check: no issues'));
  // eslint with warnings only: "✖ 2 problems (0 errors, 2 warnings)" passes.
  if (eslint !== null) out.push(finding(1, 'linter: warnings only'));
  // cargo: "Finished `dev` profile …" (a warning's `help:` is still a fix worth knowing).
  if (/^[ \t]*Finished\b.*\b(?:target|profile)/m.test(text)) out.push(finding(1, 'cargo:Finished', /^warning\b/m.test(text) ? hint : null));
  if (
    /\b(?:Compiled successfully|compiled successfully|Build succeeded|BUILD SUCCESS(?:FUL)?|built in [\d.]+m?s)\b|^\[\+\] Building [\d.]+s \((\d+)\/\1\) FINISHED/m.test(
      text,
    )
  )
    out.push(finding(1, 'build:success'));
  if (/\bBUILD FAIL(?:ED|URE)\b|\bBuild failed\b|\bFailed to compile\b/.test(text)) out.push(finding(-1, 'build:failed', hint));
  return out;
};

export const RUNNER_PARSERS: ToolParser[] = [testRunners, compilers];
