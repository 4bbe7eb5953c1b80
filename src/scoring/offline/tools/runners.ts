// Test runners and compilers: their summaries say how many failed, whatever words sit next to it
// ("1 failed, 41 passed" is a failure), and their diagnostics say what to change (`help:` lines,
// "did you mean", a test's expected value).

import { cleanHint, finding, type ToolFinding, type ToolParser } from './types.ts';

const count = (text: string, re: RegExp): number => {
  let n = 0;
  for (const m of text.matchAll(re)) n += Number(m[1]);
  return n;
};

/** A test's stated expected value: jest/vitest `Expected: 90`, go `want 90`, chai `expected … to be -5`, cargo `right: 90`. */
function expectedValue(text: string): string | null {
  const jest = /^\s*Expected(?: value)?:\s*(.+)$/m.exec(text);
  if (jest !== null) return cleanHint(`expected ${jest[1]}`);
  const go = /(?:\bgot\b|=)\s*.+?,?\s+want\s+(.+)$/im.exec(text);
  if (go !== null) return cleanHint(`want ${go[1]}`);
  const chai = /\bexpected\s+(.+?)\s+to\s+(equal|be|deeply equal)\s+(.+)$/im.exec(text);
  if (chai !== null) return cleanHint(`expected ${chai[3].replace(/\s*\/\/.*$/, '')}`);
  const cargo = /^\s*right:\s*(.+)$/m.exec(text);
  if (cargo !== null && /assertion.*left == right/.test(text)) return cleanHint(`expected ${cargo[1]}`);
  return null;
}

/**
 * Other runners' count lines: dotnet "Failed: 0, Passed: 57, …", minitest "130 runs, 412
 * assertions, 0 failures, 0 errors", gradle "12 tests completed, 2 failed": failures by count.
 */
function otherSummaries(text: string): ToolFinding[] {
  const line = /^.*\b(?:\d+ (?:runs?|tests?|examples?|assertions?|passed)|Passed:\s*\d+|Total:\s*\d+)\b.*$/im.exec(text);
  if (line === null) return [];
  const bad = count(line[0], /(\d+) (?:failed|failures?|errors?)\b/gi) + count(line[0], /\b(?:Failed|Failures|Errors):\s*(\d+)/g);
  const good = count(line[0], /(\d+) (?:runs?|tests?|examples?|passed)\b/gi) + count(line[0], /\bPassed:\s*(\d+)/g);
  if (bad > 0) return [finding(-1, `tests:"${line[0].trim().slice(0, 60)}"`, expectedValue(text))];
  return good > 0 ? [finding(1, `tests:"${line[0].trim().slice(0, 60)}"`)] : [];
}

const testRunners: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  // pytest: "=== 1 failed, 3 passed in 0.12s ===", "=== 3 passed in 0.1s ===", "no tests ran".
  const py = /^=+ (.*\b(?:passed|failed|errors?|no tests ran)\b.*) in [\d.]+s.*=+\s*$/m.exec(text);
  if (py !== null) {
    const bad = count(py[1], /(\d+) (?:failed|errors?)\b/g);
    const good = count(py[1], /(\d+) passed\b/g);
    if (bad > 0) out.push(finding(-1, `pytest:"${py[1]}"`, expectedValue(text)));
    else if (good > 0) out.push(finding(1, `pytest:"${py[1]}"`));
    else out.push(finding(0, `pytest:"${py[1]}"`));
  }
  // jest/vitest: "Tests:  1 failed, 41 passed, 42 total", "Tests  1 failed | 41 passed (42)".
  for (const m of text.matchAll(/^\s*(?:Tests|Test Files|Test Suites):?\s+(.*)$/gm)) {
    const bad = count(m[1], /(\d+) failed\b/g);
    const good = count(m[1], /(\d+) passed\b/g);
    if (bad > 0) out.push(finding(-1, `jest:"${m[1].trim()}"`, expectedValue(text)));
    else if (good > 0) out.push(finding(1, `jest:"${m[1].trim()}"`));
  }
  // mocha: "  3 passing (20ms)" / "  1 failing".
  const failing = /^\s*(\d+) failing\b/m.exec(text);
  if (failing !== null && Number(failing[1]) > 0) out.push(finding(-1, `mocha:"${failing[0].trim()}"`, expectedValue(text)));
  else if (/^\s*\d+ passing\b/m.test(text)) out.push(finding(1, 'mocha:passing'));
  // go test: "--- FAIL: TestX", "FAIL\tpkg", "ok  \tpkg\t0.01s".
  if (/^(--- FAIL:|FAIL\s+\S+|FAIL$)/m.test(text)) out.push(finding(-1, 'go test:FAIL', expectedValue(text)));
  else if (/^ok\s+\S+\s+[\d.]+s/m.test(text) || /^PASS$/m.test(text)) out.push(finding(1, 'go test:ok'));
  // cargo test: "test result: FAILED. 3 passed; 1 failed" / "test result: ok. 4 passed; 0 failed".
  for (const m of text.matchAll(/^test result: (\w+)\. (.*)$/gm)) {
    const bad = count(m[2], /(\d+) failed\b/g);
    out.push(bad > 0 || m[1] !== 'ok' ? finding(-1, `cargo test:"${m[0]}"`, expectedValue(text)) : finding(1, `cargo test:"${m[0]}"`));
  }
  // Jest's per-file banners: "FAIL src/x.test.ts" / "PASS src/x.test.ts".
  if (/^\s*FAIL\s+\S+\.(?:[jt]sx?|mjs|cjs)\b/m.test(text)) out.push(finding(-1, 'jest:FAIL', expectedValue(text)));
  else if (/^\s*PASS\s+\S+/m.test(text)) out.push(finding(1, 'jest:PASS'));
  if (out.length === 0) out.push(...otherSummaries(text));
  return out;
};

/** `help: …`, `note: include …`, "did you mean …": the fix a compiler states. */
function compilerHint(lines: string[]): string | null {
  for (const line of lines) {
    const help = /(?:^\s*(?:=\s*)?|\^+\s+)help:\s*(.+)$/.exec(line);
    if (help !== null) return cleanHint(help[1]);
  }
  for (const line of lines) {
    const include = /\bnote:\s*(include\s+.+?)(?:\s+or provide a declaration.*)?$/.exec(line);
    if (include !== null) return cleanHint(include[1]);
    const mean = /\b[Dd]id you mean\s+(.+?)\??$/.exec(line);
    if (mean !== null) return cleanHint(`use ${mean[1].replace(/^to\s+/, '')}`);
  }
  return null;
}

const compilers: ToolParser = (text, lines) => {
  const out: ToolFinding[] = [];
  const hint = compilerHint(lines);
  // tsc: "src/a.ts(3,5): error TS2322: …", "src/a.ts:3:5 - error TS2322: …", "Found 2 errors".
  // rustc/cargo: "error[E0382]: …", "error: could not compile". gcc/clang: "a.c:3:5: error: …".
  // mypy: "a.py:3: error: … [arg-type]", "Found 2 errors in 1 file". eslint: "✖ 3 problems (3 errors, 0 warnings)".
  const diag =
    /^(?:\S+\(\d+,\d+\): error TS\d+|\S+:\d+:\d+ - error TS\d+|error(?:\[E\d+\])?:|\S+:\d+(?::\d+)?: (?:fatal )?error:|\s*\d+:\d+\s+error\s|\S+\.go:\d+:\d+: )/m.exec(
      text,
    );
  // ruff --fix: "Found 6 errors (6 fixed, 0 remaining)." is a clean run.
  const found = /^Found (\d+) errors?\b(?! \(\d+ fixed, 0 remaining\))/m.exec(text);
  if (/^Found \d+ errors? \(\d+ fixed, 0 remaining\)/m.test(text)) return [finding(1, 'linter: all fixed')];
  const eslint = /✖ \d+ problems? \((\d+) errors?/.exec(text);
  if (diag !== null || (found !== null && Number(found[1]) > 0) || (eslint !== null && Number(eslint[1]) > 0)) {
    out.push(finding(-1, `compiler:"${(diag ?? found ?? eslint)![0].trim()}"`, hint ?? lintHint(text)));
    return out;
  }
  if (/^Success: no issues found/m.test(text) || (found !== null && found[1] === '0')) out.push(finding(1, 'type check: no issues'));
  // eslint with warnings only: "✖ 2 problems (0 errors, 2 warnings)" passes.
  if (eslint !== null) out.push(finding(1, 'linter: warnings only'));
  // cargo: "Finished `dev` profile …" (a warning's `help:` is still a fix worth knowing).
  if (/^\s*Finished\b.*\b(?:target|profile)/m.test(text)) out.push(finding(1, 'cargo:Finished', /^warning\b/m.test(text) ? hint : null));
  if (
    /\b(?:Compiled successfully|compiled successfully|Build succeeded|BUILD SUCCESSFUL|built in [\d.]+m?s)\b|^\[\+\] Building [\d.]+s \((\d+)\/\1\) FINISHED/m.test(
      text,
    )
  )
    out.push(finding(1, 'build:success'));
  if (/\bBUILD FAILED\b|\bBuild failed\b|\bFailed to compile\b/.test(text)) out.push(finding(-1, 'build:failed', hint));
  return out;
};

/** A linter that names the expected form: "Expected '===' and instead saw '=='" → "use === instead of ==". */
function lintHint(text: string): string | null {
  const saw = /Expected '([^']+)' and instead saw '([^']+)'/.exec(text);
  if (saw !== null) return `use ${saw[1]} instead of ${saw[2]}`;
  const expected = /\b(?:Expected|expected) (.+?) but (?:found|got|saw) (.+?)(?:\s{2,}|$)/m.exec(text);
  if (expected !== null) return cleanHint(`use ${expected[1]} instead of ${expected[2]}`);
  return null;
}

export const RUNNER_PARSERS: ToolParser[] = [testRunners, compilers];
