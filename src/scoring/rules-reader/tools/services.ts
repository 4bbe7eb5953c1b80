// HTTP and JSON APIs, SQL clients, git, package managers, deploy tools, the shell: each says in
// its own format whether it did what it was run for, and some say how to fix it (psql `HINT:`,
// a validation error naming the missing field, "can be installed with …").

import { cleanHint, finding, type ToolFinding, type ToolParser } from './types.ts';

/**
 * What a sentence with a conditional lead-in says to do: "If you wish to install a non-Debian
 * package, create a virtual environment using python3 -m venv path/to/venv." → the action after
 * the comma (a dot inside a name or path does not end it).
 */
export function afterCondition(text: string): string | null {
  const m = /\bIf you (?:wish|want|need) to [^,.]+,\s*((?:[^.]|\.(?=\S))+)/i.exec(text.replace(/\s+/g, ' '));
  return m !== null ? cleanHint(m[1]) : null;
}

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
  // Discord's {"errors": {"content": {"_errors": [...]}}}: errors keyed by the field.
  if (/"errors"\s*:\s*\{\s*"/.test(text)) return 'errors{}';
  if (/"status"\s*:\s*"(?:error|fail|failed|failure)"/i.test(text)) return 'status:error';
  if (/"error"\s*:\s*(?:"[^"]|\{)/.test(text)) return 'error';
  return null;
}

/**
 * Whether a response's JSON body lists nothing: `[]`, `{}`, or an object whose lists are all empty
 * and that names no created thing (`{"tenant":"staging","flags":[]}`, not `{"id":7,"tags":[]}`).
 */
function emptyListing(text: string): boolean {
  const body = /^[ \t]*([{[][\s\S]*)$/m.exec(text)?.[1].trim() ?? '';
  if (/^(?:\[\s*\]|\{\s*\})$/.test(body)) return true;
  if (!body.startsWith('{') || body.length > 2000) return false;
  try {
    const o = JSON.parse(body) as Record<string, unknown>;
    const lists = Object.values(o).filter(Array.isArray);
    return lists.length > 0 && lists.every((l) => l.length === 0) && !('id' in o);
  } catch {
    return false;
  }
}

/**
 * The fix a failed response states, as it states it. A message of two parts says what is wrong,
 * then what to do ("Maximum upload size is 10 MB; compress the image …"): the second part (retry
 * advice is dropped by tools/index.ts `isRetryAdvice`). A validation error (`validation`: a 400/422) names the
 * field: its message, with the field's name when the message leaves it out ("currency is
 * required"), else "Missing required parameter: currency.", else the field a generic "Field
 * required" points at. Never `Retry-After`: waiting is not a fix of the answer.
 */
function responseHint(text: string, validation: boolean): string | null {
  // A body that says what to do: {"error": …, "hint": "use 'page_size' instead"}.
  const said = /"(?:hint|suggestion|fix|resolution)"\s*:\s*"([^"\n]{3,200})"/.exec(text);
  if (said !== null) return said[1];
  const messages = [...text.matchAll(/"(?:message|msg|detail|error_description)"\s*:\s*"([^"]{3,})"/g)].map((m) => m[1]);
  for (const msg of messages) {
    const then = msg.split(/[;.]\s+/).at(-1) ?? '';
    if (then !== msg && /\w/.test(then) && !/^(?:See|For more)\b/i.test(then)) return cleanHint(then);
  }
  if (validation) {
    const named = /"(?:field|param)"\s*:\s*"([\w.-]+)"[^{}]*?"(?:message|msg)"\s*:\s*"([^"]{3,})"/.exec(text);
    if (named !== null && !/^(?:field required|missing|required)$/i.test(named[2])) {
      const last = named[1].split('.').at(-1) ?? named[1];
      return cleanHint(named[2].includes(last) || /^[A-Z]/.test(named[2]) ? named[2] : `${named[1]} ${named[2]}`);
    }
    const field = missingField(text);
    const stated = messages.find((m) => field !== null && m.includes(field));
    if (stated !== undefined) return cleanHint(stated);
    if (field !== null) return `include the required field ${field}`;
  }
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
      out.push(finding(-1, `http:${status}`, responseHint(text, status === 400 || status === 422)));
    } else if (status >= 200 && status < 300) {
      if (bodyError !== null) out.push(finding(-1, `http:${status} with ${bodyError}`));
      // A read that found nothing is information: the request worked, there is just no data.
      else if (status === 200 && emptyListing(text)) out.push(finding(0, 'http:200 empty'));
      else out.push(finding(1, `http:${status}`));
    }
    // A redirect where data was asked for: the data is not there; the new address is the fix.
    else if (status >= 300 && status < 400 && status !== 304) {
      const moved = /^Location:\s*\S+/im.exec(text);
      out.push(finding(-1, `http:${status}`, moved !== null ? moved[0].trim() : null));
    } else if (status === 304) out.push(finding(0, 'http:304'));
  } else if (bodyError !== null && /^\s*[{[]/.test(text)) {
    out.push(finding(-1, `json:${bodyError}`, responseHint(text, true)));
  }
  // curl's own errors: "curl: (28) Operation timed out", "curl: (7) Failed to connect".
  const curl = /^curl: \((\d+)\)/m.exec(text);
  if (curl !== null && curl[1] !== '0') out.push(finding(-1, `curl:(${curl[1]})`));
  return out;
};

/**
 * Of a psql `HINT:` of several sentences, the one that says what to do: "No function matches the
 * given name and argument types. You might need to add explicit type casts." → the second.
 */
function hintAction(hint: string): string {
  const sentences = hint.split(/(?<=\.)\s+(?=[A-Z])/);
  if (sentences.length < 2) return hint;
  return sentences.find((t) => /\b(?:might need to|need to|should|must|try|perhaps|consider)\b/i.test(t)) ?? hint;
}

/** A result of one column and one row (`SELECT count(*)`, a sum): a value looked up, information. */
const SINGLE_VALUE = /^[ \t]*[\w ]+\n[ \t]*-+[ \t]*\n[^|\n]+\n\(1 row\)/m;

const sql: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  const err =
    /^(?:psql:\S*\s*)?ERROR:\s+(.+)$/m.exec(text) ?? /^(?:ERROR \d+ \(\w+\)|Error: near|sqlite3?\.\w*Error|SQLSTATE\[)/m.exec(text);
  if (err !== null) {
    const hint = /^HINT:\s+(.+)$/m.exec(text);
    // "Perhaps you meant to reference the column "o.total"": the action and the name, a length that
    // names the same fix as the whole sentence and as the bare column (bench:judge's either extent).
    const stated = hint !== null ? cleanHint(hintAction(hint[1]).replace(/^Perhaps you meant to (?=reference\b)/, '')) : null;
    out.push(finding(-1, `sql:"${err[0].slice(0, 60)}"`, stated));
    return out;
  }
  const rows = /^\((\d+) rows?\)\s*$/m.exec(text);
  if (rows !== null) out.push(finding(rows[1] === '0' || SINGLE_VALUE.test(text) ? 0 : 1, `sql:${rows[0].trim()}`));
  const tag = /^(INSERT \d+ (\d+)|UPDATE (\d+)|DELETE (\d+)|CREATE \w+|ALTER \w+|DROP \w+|COPY \d+|GRANT|TRUNCATE TABLE|Query OK)/m.exec(
    text,
  );
  // mysql says the same of a write that matched nothing: "Query OK, 0 rows affected" after an UPDATE
  // or DELETE, "Rows matched: 0".
  const noRow =
    /^Rows matched: 0\b/m.test(text) || (/^(?:mysql> )?(?:UPDATE|DELETE)\b/im.test(text) && /^Query OK, 0 rows affected/m.test(text));
  if (tag !== null) {
    const n = noRow ? '0' : (tag[2] ?? tag[3] ?? tag[4]);
    // An INSERT, UPDATE or DELETE is run to change rows: "UPDATE 0" changed none (a wrong WHERE, a missing row).
    out.push(finding(n === '0' ? -1 : 1, `sql:${tag[0]}`));
  }
  if (/^Empty set\b/m.test(text)) out.push(finding(0, 'sql:empty set'));
  return out;
};

/**
 * What git says to do, as printed. A merge: "Automatic merge failed; fix conflicts and then commit
 * the result." Else its `hint:` advice (one advice wrapped over several lines): the first sentence
 * that says what to do ("Resolve all conflicts manually, mark them as resolved with …", "You may
 * want to first integrate the remote changes (e.g. 'git pull ...') before pushing again"). The
 * alternatives after it (skip, abort) and the pointer to the manual are not the fix.
 */
function gitAdvice(text: string): string | null {
  const merge = /^Automatic merge failed; (.+)$/m.exec(text);
  if (merge !== null) return cleanHint(merge[1]);
  // A checkout over local changes: "Please commit your changes or stash them before you switch branches."
  const please = /^Please ((?:commit|stash|move|remove)\b.+?)(?: before .+)?\.?$/m.exec(text);
  if (please !== null) return cleanHint(please[1]);
  const advice = [...text.matchAll(/^hint: ?(.*)$/gm)].map((m) => m[1].trim()).join(' ');
  const act = advice
    .split(/(?<=\.)\s+(?=[A-Z])/)
    .find((h) => /\b(?:integrate|pull|resolve|fix|commit|stash|use|run)\b/i.test(h) && !/^(?:See|To abort|You can instead)\b/.test(h));
  if (act === undefined) return null;
  // "If you want to integrate the remote changes, use 'git pull' before pushing again": what to do
  // comes after the condition.
  // "You may want to first integrate the remote changes (e.g., 'git pull ...') before pushing
  // again": the action, without the moment after it.
  const action = act.replace(/\(e\.g\.,?\s*|\)/g, '').replace(/\s+before pushing again\.?$/, '');
  return afterCondition(act) ?? cleanHint(action);
}

const git: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  // A mistyped subcommand: "git: 'stauts' is not a git command." then "The most similar command is"
  // and the command on its own indented line.
  if (/^git: '[^']+' is not a git command\b/m.test(text)) {
    const similar = /^The most similar commands? (?:is|are)\s*\n[ \t]+(\S+)/m.exec(text);
    return [finding(-1, 'git:not a command', similar !== null ? similar[1] : null)];
  }
  if (
    /! \[(?:rejected|remote rejected)\]|error: failed to push|^CONFLICT \(|Automatic merge failed|^fatal: (?!\[)|^error: (?:pathspec|Your local changes|The following untracked working tree files would be)/m.test(
      text,
    )
  ) {
    out.push(finding(-1, 'git:rejected/conflict/fatal', gitAdvice(text)));
    return out;
  }
  if (/nothing to commit,? (?:\(|working (?:tree|directory) clean)|^Already up[ -]to[ -]date\.?$|^Everything up-to-date$/m.test(text))
    out.push(finding(0, 'git:clean/up to date'));
  else if (/^On branch \S+/m.test(text) || /^commit [0-9a-f]{7,40}\b/m.test(text) || (/^\* ?\S+$/m.test(text) && /^\s{2}\S+$/m.test(text)))
    out.push(finding(0, 'git:status/log'));
  if (/^\[[\w./-]+ [0-9a-f]{7,}\] /m.test(text)) out.push(finding(1, 'git:commit'));
  if (/^[ \t]+[0-9a-f]{7,}\.\.[0-9a-f]{7,}\s+\S+ -> \S+|^ \* \[new branch\]|^Switched to (?:a new )?branch|^Fast-forward$/m.test(text))
    out.push(finding(1, 'git:pushed/switched'));
  if (/^https:\/\/github\.com\/\S+\/(?:pull|issues)\/\d+\s*$/m.test(text)) out.push(finding(1, 'gh:url'));
  return out;
};

/**
 * The fix a package manager's error states in words no other reading owns: pip's "If you wish to
 * …, create a virtual environment using python3 -m venv path/to/venv", pnpm's `use "pnpm install
 * --no-frozen-lockfile"`. Log prefixes (`npm ERR!`, a build step's timestamp) are not words.
 */
function packageAdvice(text: string): string | null {
  const lines = text.split('\n').map((l) => l.replace(NPM_PREFIX, ''));
  // The fix starts its line; the alternative after ", or" may wrap onto the next (npm ERESOLVE's
  // "Fix the upstream dependency conflict, or retry this command with --force …").
  const first = /^([A-Z][a-z]+ [^.,;\n]+), or (?:retry|try)\b/m.exec(lines.join('\n'));
  if (first !== null) return cleanHint(first[1]);
  const plain = lines.join(' ').replace(/\s+/g, ' ');
  const use = /\buse (["'`])[^"'`]{3,}\1/.exec(plain);
  return afterCondition(plain) ?? (use !== null ? use[0] : null);
}

/** npm's line prefix, also after a build log's step number or timestamp ("#12 0.915 npm ERR! "). */
export const NPM_PREFIX = /^(?:#\d+\s+)?(?:\d+\.\d+\s+)?npm (?:ERR!|error)\s?/;

const packages: ToolParser = (text) => {
  const out: ToolFinding[] = [];
  // Command-not-found with an install suggestion (Ubuntu's handler).
  const install = /can be installed with:?\s*\n?\s*((?:sudo )?(?:apt|apt-get|snap|dnf|brew|pip|npm) install \S+)/.exec(text);
  if (
    /\bnpm (?:ERR!|error)|^\s*ERR_PNPM_\w+|^E: |^ERROR: (?:Could not|No matching|Cannot)|error: externally-managed|Could not resolve dependencies|^error Command failed/m.test(
      text,
    )
  ) {
    const stated = /(?:retry (?:with|using)|[Tt]ry (?:running|again with)|rerun with)\s+(.+)$/m.exec(text);
    out.push(finding(-1, 'package manager error', stated !== null ? cleanHint(`retry with ${stated[1]}`) : packageAdvice(text)));
  } else if (install !== null) out.push(finding(-1, 'command not found', cleanHint(install[1])));
  // composer: "Problem 1" then "  - Root composer.json requires php ^8.2 but your php version …":
  // the requirement it names is what to meet.
  const problem = /^[ \t]*Problem \d+[ \t]*\n[ \t]*- (.+?)(?= but |\.?[ \t]*$)/m.exec(text);
  if (problem !== null || /^Your requirements could not be resolved\b/m.test(text))
    out.push(finding(-1, 'composer:problem', problem !== null ? cleanHint(problem[1]) : null));
  if (/^(?:added|removed|changed|updated) \d+ packages?\b|^Successfully installed\b|^Setting up \S+|\bup to date, audited\b/m.test(text))
    out.push(finding(1, 'packages installed'));
  if (/is already the newest version|^Requirement already satisfied|^0 upgraded, 0 newly installed|^up to date in\b/m.test(text))
    out.push(finding(0, 'already installed'));
  return out;
};

const deploy: ToolParser = (text, lines) => {
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
  // Rails raises on pending migrations: "Migrations are pending. To resolve this issue, run:" (the
  // command on the next line is found by the reader's stated fix).
  if (/\bMigrations are pending\b|\bPendingMigrationError\b/.test(text)) out.push(finding(-1, 'migrations pending'));
  // ansible: the PLAY RECAP counts each host's failures; a task's "fatal: [host]: FAILED! => {…"msg": …}" says why.
  const recap = [...text.matchAll(/^\S+\s*:\s*ok=\d+\s+changed=\d+\s+unreachable=(\d+)\s+failed=(\d+)/gm)];
  if (recap.some((m) => m[1] !== '0' || m[2] !== '0')) {
    const msg = /^fatal: \[[^\]]+\]: .*?"msg":\s*"(?:\w+: )?([^"]+)"/m.exec(text);
    out.push(finding(-1, 'ansible:failed', msg !== null ? cleanHint(msg[1]) : null));
  } else if (recap.length > 0) out.push(finding(1, 'ansible:ok'));
  // docker compose: " ✔ Container shop-api-1  Started", " ✘ Container shop-web-1  Error"; the daemon's
  // "Error response from daemon: …" fails whatever ran before it.
  if (/^[ \t]*✘ |^Error response from daemon:/m.test(text)) out.push(finding(-1, 'docker:error'));
  else if (/^[ \t]*✔ (?:Container|Network|Volume) \S+\s+(?:Started|Created|Running|Healthy|Recreated)\b/m.test(text))
    out.push(finding(1, 'compose:started'));
  // aws s3 cp/sync/mv: every line "upload: dist/a.js to s3://bucket/a.js" (or download, copy,
  // delete, move), with its progress lines, reports a transfer done.
  const transfers = lines.filter((l) => /^(?:upload|download|copy|delete|move): \S/.test(l));
  if (transfers.length > 0 && transfers.length + lines.filter((l) => /^Completed \S+/.test(l)).length === lines.length)
    out.push(finding(1, 'aws s3:transferred'));
  // alembic / migrations
  if (/Running upgrade \S* ?-> \S+|^Applying \S+\.\.\. OK$|^[ \t]*Applying \S+ OK|Migrations? (?:applied|complete)/m.test(text))
    out.push(finding(1, 'migration ran'));
  return out;
};

/**
 * A CLI that is not signed in names the command that signs in: gh "To get started with GitHub CLI,
 * please run:  gh auth login", docker "… may require 'docker login'", az "Please run 'az login'",
 * aws "… by running "aws configure"". It did not do what it was run for; the phrase is the fix.
 */
const signIn: ToolParser = (text) => {
  const m =
    /(?:\b(?:may |must )?requires?|\bplease run|\brun|\brunning)\b:?\s*\$?\s*(['"`]?)([\w-]+(?: auth)? (?:login|configure|adduser))\b\1/i.exec(
      text,
    );
  return m !== null ? [finding(-1, `sign-in:${m[2]}`, cleanHint(m[0]))] : [];
};

const EXIT_FATAL: Array<[RegExp, string]> = [
  [/\bOut of memory: Kill(?:ed)? process\b|\boom-kill(?:er)?\b|\bOOMKilled\b|^Killed\s*$/im, 'killed (out of memory)'],
  [/CUDA out of memory|\bOutOfMemoryError\b|\bMemoryError\b|std::bad_alloc/, 'out of memory'],
  [/Segmentation fault|core dumped|SIGSEGV/, 'segfault'],
  [/\bcommand not found\b|: not found$|is not recognized as an internal or external command/m, 'command not found'],
  [/\btimed out\b|\bTimeout(?:Error|Exception)?\b|deadline exceeded|^timeout: /im, 'timeout'],
  [
    /Traceback \(most recent call last\)|^panic: |^thread '.*' panicked at|^Exception in thread|^Unhandled exception|^[ \t]*at .+\(.+:\d+:\d+\)$/m,
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
  // `git clean -n`: "Would remove build/" on every line previews what a run would delete.
  if (lines.length > 0 && lines.every((l) => /^Would (?:remove|delete|skip|overwrite|copy|move)\b/.test(l.trim())))
    return [finding(0, 'preview')];
  const logLines = lines.filter((l) => /^[ \t]*(?:\S+\s+){0,2}\[?(?:INFO|DEBUG|TRACE|NOTICE)\]?\b/.test(l));
  if (lines.length > 0 && logLines.length === lines.length) return [finding(0, 'log lines')];
  if (/^(?:Nothing to (?:do|be done)|No changes|nothing to (?:do|update))\b/im.test(t)) return [finding(0, 'nothing to do')];
  return [];
};

export const SERVICE_PARSERS: ToolParser[] = [http, sql, git, packages, deploy, signIn, shell, info];
