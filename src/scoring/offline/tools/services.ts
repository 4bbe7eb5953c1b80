// HTTP and JSON APIs, SQL clients, git, package managers, deploy tools, the shell: each says in
// its own format whether it did what it was run for, and some say how to fix it (psql `HINT:`,
// `Retry-After`, a validation error naming the missing field, "can be installed with …").

import { cleanHint, finding, type ToolFinding, type ToolParser } from './types.ts';

/** The field a validation error names as missing, from common JSON error shapes. */
function missingField(text: string): string | null {
  // FastAPI/pydantic: {"loc": ["body", "email"], "msg": "field required"} (any order).
  const loc = /"loc"\s*:\s*\[[^\]]*?"([\w.-]+)"\s*\][^}]*?"msg"\s*:\s*"(?:field required|Field required|missing)/.exec(text);
  if (loc !== null) return loc[1];
  const loc2 = /"type"\s*:\s*"missing"[^}]*?"loc"\s*:\s*\[[^\]]*?"([\w.-]+)"\s*\]/.exec(text);
  if (loc2 !== null) return loc2[1];
  const named =
    /"(?:field|param|parameter|property|path)"\s*:\s*"([\w.-]+)"[^}]*?"(?:message|msg|error|code)"\s*:\s*"[^"]*(?:required|missing|blank|empty)/i.exec(
      text,
    );
  if (named !== null) return named[1];
  const plain =
    /['"`]?([\w.-]+)['"`]? (?:is|field is) (?:required|missing)|missing (?:required )?(?:field|parameter|property|key)s?:? ['"`]?([\w.-]+)/i.exec(
      text,
    );
  if (plain !== null) return plain[1] ?? plain[2];
  return null;
}

/** A JSON body that reports an error: Slack `ok:false`, GraphQL `errors`, `error`/`success:false`/`status:"error"`. */
function jsonError(text: string): string | null {
  if (/"ok"\s*:\s*false/.test(text)) return 'ok:false';
  if (/"success"\s*:\s*false/.test(text)) return 'success:false';
  if (/"errors"\s*:\s*\[\s*\{/.test(text)) return 'errors[]';
  if (/"status"\s*:\s*"(?:error|fail|failed|failure)"/i.test(text)) return 'status:error';
  if (/"error"\s*:\s*(?:"[^"]|\{)/.test(text)) return 'error';
  return null;
}

const http: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  const statuses = [...text.matchAll(/^(?:[<>*]\s*)?HTTP\/[\d.]+\s+(\d{3})\b.*$/gm)].map((m) => Number(m[1]));
  const plain = /^(?:HTTP\s+|Status(?: code)?:\s*|status=)(\d{3})\b/im.exec(text);
  if (plain !== null) statuses.push(Number(plain[1]));
  const curlStatus = /The requested URL returned error: (\d{3})/.exec(text);
  if (curlStatus !== null) statuses.push(Number(curlStatus[1]));
  const status = statuses.at(-1);
  const bodyError = jsonError(text);
  if (status !== undefined) {
    if (status >= 400) {
      let hint: string | null = null;
      const retry = /^Retry-After:\s*(\d+)/im.exec(text);
      if (retry !== null) hint = `wait ${retry[1]} seconds before retrying`;
      const field = status === 400 || status === 422 ? missingField(text) : null;
      if (field !== null) hint = `include the required field ${field}`;
      out.push(finding(-1, `http:${status}`, hint));
    } else if (status >= 200 && status < 300)
      out.push(bodyError !== null ? finding(-1, `http:${status} with ${bodyError}`) : finding(1, `http:${status}`));
    // A redirect where data was asked for: the data is not there; the new address is the fix.
    else if (status >= 300 && status < 400 && status !== 304) {
      const moved = /^Location:\s*\S+/im.exec(text);
      out.push(finding(-1, `http:${status}`, moved !== null ? moved[0].trim() : null));
    } else if (status === 304) out.push(finding(0, 'http:304'));
  } else if (bodyError !== null && /^\s*[{[]/.test(text)) {
    const field = missingField(text);
    out.push(finding(-1, `json:${bodyError}`, field !== null ? `include the required field ${field}` : null));
  }
  // curl's own errors: "curl: (28) Operation timed out", "curl: (7) Failed to connect".
  const curl = /^curl: \((\d+)\)/m.exec(text);
  if (curl !== null && curl[1] !== '0') out.push(finding(-1, `curl:(${curl[1]})`));
  return out;
};

const sql: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  const err =
    /^(?:psql:\S*\s*)?ERROR:\s+(.+)$/m.exec(text) ?? /^(?:ERROR \d+ \(\w+\)|Error: near|sqlite3?\.\w*Error|SQLSTATE\[)/m.exec(text);
  if (err !== null) {
    const hint = /^HINT:\s+(.+)$/m.exec(text);
    out.push(finding(-1, `sql:"${err[0].slice(0, 60)}"`, hint !== null ? cleanHint(hint[1]) : null));
    return out;
  }
  const rows = /^\((\d+) rows?\)\s*$/m.exec(text);
  if (rows !== null) out.push(finding(rows[1] === '0' ? 0 : 1, `sql:${rows[0].trim()}`));
  const tag = /^(INSERT \d+ (\d+)|UPDATE (\d+)|DELETE (\d+)|CREATE \w+|ALTER \w+|DROP \w+|COPY \d+|GRANT|TRUNCATE TABLE|Query OK)/m.exec(
    text,
  );
  if (tag !== null) {
    const n = tag[2] ?? tag[3] ?? tag[4];
    // An INSERT, UPDATE or DELETE is run to change rows: "UPDATE 0" changed none (a wrong WHERE, a missing row).
    out.push(finding(n === '0' ? -1 : 1, `sql:${tag[0]}`));
  }
  if (/^Empty set\b/m.test(text)) out.push(finding(0, 'sql:empty set'));
  return out;
};

const git: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  if (
    /! \[(?:rejected|remote rejected)\]|error: failed to push|^CONFLICT \(|Automatic merge failed|^fatal: |^error: (?:pathspec|Your local changes)/m.test(
      text,
    )
  ) {
    // git's `hint:` lines wrap one advice over several lines; its last sentence says what to do.
    const advice = [...text.matchAll(/^hint: ?(.*)$/gm)].map((m) => m[1].trim()).join(' ');
    const act = advice
      .split(/(?<=\.)\s+(?=[A-Z])/)
      .reverse()
      .find((h) => /\b(git \w+|before pushing|resolve|commit|stash|use)\b/i.test(h));
    out.push(finding(-1, 'git:rejected/conflict/fatal', act !== undefined ? cleanHint(act.replace(/\(e\.g\.,?\s*|\)/g, '')) : null));
    return out;
  }
  if (/nothing to commit,? (?:\(|working (?:tree|directory) clean)|^Already up[ -]to[ -]date\.?$|^Everything up-to-date$/m.test(text))
    out.push(finding(0, 'git:clean/up to date'));
  else if (/^On branch \S+/m.test(text) || /^commit [0-9a-f]{7,40}\b/m.test(text) || (/^\* ?\S+$/m.test(text) && /^\s{2}\S+$/m.test(text)))
    out.push(finding(0, 'git:status/log'));
  if (/^\[[\w./-]+ [0-9a-f]{7,}\] /m.test(text)) out.push(finding(1, 'git:commit'));
  if (/^\s+[0-9a-f]{7,}\.\.[0-9a-f]{7,}\s+\S+ -> \S+|^ \* \[new branch\]|^Switched to (?:a new )?branch|^Fast-forward$/m.test(text))
    out.push(finding(1, 'git:pushed/switched'));
  if (/^https:\/\/github\.com\/\S+\/(?:pull|issues)\/\d+\s*$/m.test(text)) out.push(finding(1, 'gh:url'));
  return out;
};

const packages: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  // Command-not-found with an install suggestion (Ubuntu's handler).
  const install = /can be installed with:?\s*\n?\s*((?:sudo )?(?:apt|apt-get|snap|dnf|brew|pip|npm) install \S+)/.exec(text);
  if (
    /\bnpm (?:ERR!|error)|^E: |^ERROR: (?:Could not|No matching|Cannot)|error: externally-managed|Could not resolve dependencies|^error Command failed/m.test(
      text,
    )
  ) {
    const stated = /(?:retry (?:with|using)|[Tt]ry (?:running|again with)|rerun with)\s+(.+)$/m.exec(text);
    out.push(finding(-1, 'package manager error', stated !== null ? cleanHint(`retry with ${stated[1]}`) : null));
  } else if (install !== null) out.push(finding(-1, 'command not found', cleanHint(install[1])));
  if (/^(?:added|removed|changed|updated) \d+ packages?\b|^Successfully installed\b|^Setting up \S+|\bup to date, audited\b/m.test(text))
    out.push(finding(1, 'packages installed'));
  if (/is already the newest version|^Requirement already satisfied|^0 upgraded, 0 newly installed|^up to date in\b/m.test(text))
    out.push(finding(0, 'already installed'));
  return out;
};

const deploy: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  // kubectl
  if (/^No resources found\b/m.test(text)) out.push(finding(0, 'kubectl:none'));
  if (/^Error from server\b|\b(?:CrashLoopBackOff|ImagePullBackOff|ErrImagePull|OOMKilled|Evicted)\b/m.test(text))
    out.push(finding(-1, 'kubectl:error'));
  else if (/^[\w.-]+\/[\w.-]+ (?:created|configured|deleted|scaled|restarted|rolled back|patched)$|successfully rolled out/m.test(text))
    out.push(finding(1, 'kubectl:applied'));
  // terraform
  if (/No changes\.\s+Your infrastructure matches|^No changes\b/m.test(text)) out.push(finding(0, 'terraform:no changes'));
  if (/^(?:Apply|Destroy) complete!/m.test(text)) out.push(finding(1, 'terraform:applied'));
  // `terraform plan` previews; nothing was changed yet.
  else if (/^Plan: \d+ to add, \d+ to change, \d+ to destroy\.?$/m.test(text)) out.push(finding(0, 'terraform:plan'));
  // make
  if (/^make(?:\[\d+\])?: Nothing to be done\b|is up to date\.$/m.test(text)) out.push(finding(0, 'make:nothing to do'));
  if (/^make(?:\[\d+\])?: \*\*\* .*Error \d+/m.test(text)) out.push(finding(-1, 'make:error'));
  // alembic / migrations
  if (/Running upgrade \S* ?-> \S+|^Applying \S+\.\.\. OK$|^\s*Applying \S+ OK|Migrations? (?:applied|complete)/m.test(text))
    out.push(finding(1, 'migration ran'));
  return out;
};

const EXIT_FATAL: Array<[RegExp, string]> = [
  [/\bOut of memory: Kill(?:ed)? process\b|\boom-kill(?:er)?\b|\bOOMKilled\b|^Killed\s*$/im, 'killed (out of memory)'],
  [/CUDA out of memory|\bOutOfMemoryError\b|\bMemoryError\b|std::bad_alloc/, 'out of memory'],
  [/Segmentation fault|core dumped|SIGSEGV/, 'segfault'],
  [/\bcommand not found\b|: not found$|is not recognized as an internal or external command/m, 'command not found'],
  [/\btimed out\b|\bTimeout(?:Error|Exception)?\b|deadline exceeded|^timeout: /im, 'timeout'],
  [
    /Traceback \(most recent call last\)|^panic: |^thread '.*' panicked at|^Exception in thread|^Unhandled exception|^\s*at .+\(.+:\d+:\d+\)$/m,
    'crash',
  ],
];

const shell: ToolParser = (text, lines) => {
  const out: ToolFinding[] = [];
  for (const [re, cue] of EXIT_FATAL) if (re.test(text)) out.push(finding(-1, cue));
  // Exit codes in their usual spellings, and a bare number after `echo $?`.
  const exit =
    /(?:exit(?:ed)?(?: with)? (?:code|status)|exit_?code|returncode|Process exited with code|ExitCode)["']?\s*[:=]?\s*(-?\d+)/i.exec(
      text,
    ) ?? /\becho \$\?\s*\n\s*(\d+)\s*$/.exec(text);
  if (exit !== null) out.push(finding(Number(exit[1]) === 0 ? 1 : -1, `exit ${exit[1]}`));
  else if (lines.length === 1 && /^\$?\s*(?:\d{1,3})$/.test(lines[0].trim()) && /^(?:1|2|124|126|127|137|139|143)$/.test(lines[0].trim()))
    out.push(finding(-1, `exit ${lines[0].trim()}`));
  return out;
};

/** Output that only informs: a version string, an empty result, INFO log lines. */
const info: ToolParser = (text, lines) => {
  const t = text.trim();
  if (t === '' || /^(?:\[\]|\{\}|null|""|''|None|undefined|\(empty\)|0)$/.test(t)) return [finding(0, 'empty output')];
  if (
    lines.length <= 3 &&
    lines.every((l) => /(?:\bversion\b|^v?\d+\.\d+(?:\.\d+)?\S*$|^[\w.-]+\s+v?\d+\.\d+(?:\.\d+)?\S*(?: .*)?$)/i.test(l.trim()))
  )
    return [finding(0, 'version string')];
  // `git log --oneline`: "a1b2c3d Bump version to 2.3.1" on every line.
  if (lines.length > 0 && lines.every((l) => /^[0-9a-f]{7,40} (?:\(.*?\) )?\S/.test(l.trim()))) return [finding(0, 'git:log')];
  // A table with its header only (`docker ps`, `kubectl get` with nothing running): an empty list.
  if (lines.length === 1 && /^[A-Z][A-Z ]*[A-Z](?:\s{2,}[A-Z][A-Z ]*[A-Z]){2,}\s*$/.test(lines[0].trim()))
    return [finding(0, 'empty table')];
  const logLines = lines.filter((l) => /^\s*(?:\S+\s+){0,2}\[?(?:INFO|DEBUG|TRACE|NOTICE)\]?\b/.test(l));
  if (lines.length > 0 && logLines.length === lines.length) return [finding(0, 'log lines')];
  if (/^(?:Nothing to (?:do|be done)|No changes|nothing to (?:do|update))\b/im.test(t)) return [finding(0, 'nothing to do')];
  return [];
};

export const SERVICE_PARSERS: ToolParser[] = [http, sql, git, packages, deploy, shell, info];
