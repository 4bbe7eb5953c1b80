import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readToolOutput } from './index.ts';

// The parsers' own verdicts and stated fixes.
const read = (text: string) => {
  const r = readToolOutput(text);
  return [r.score, r.hint];
};

test('test runners: failures next to "passed" fail; the expected value is the hint', () => {
  assert.deepEqual(read('FAILED t.py::test_x - assert 1 == 2\n==== 1 failed, 41 passed in 0.50s ===='), [-1, 'assert 1 == 2']);
  assert.deepEqual(read('======= 12 passed, 1 warning in 0.20s ======='), [1, null]);
  assert.deepEqual(read('Tests:       2 failed, 40 passed, 42 total\n    Expected: 90\n    Received: 85'), [-1, 'expected 90']);
  assert.deepEqual(read(' Test Files  1 passed (1)\n      Tests  9 passed (9)'), [1, null]);
  assert.deepEqual(read('  3 passing (20ms)\n  1 failing\n  AssertionError: expected 4 to equal -5'), [-1, 'expected 4 to equal -5']);
  assert.deepEqual(read('--- FAIL: TestSum (0.00s)\n    sum_test.go:9: got 7, want 10\nFAIL'), [-1, 'want 10']);
  assert.deepEqual(read('test result: FAILED. 3 passed; 1 failed; 0 ignored'), [-1, null]);
  assert.deepEqual(read('test result: ok. 4 passed; 0 failed; 0 ignored'), [1, null]);
});

test('compilers and type checkers: errors fail, the stated fix is the hint', () => {
  assert.deepEqual(read("a.ts(3,5): error TS2551: Property 'lenght' does not exist. Did you mean 'length'?"), [
    -1,
    "Did you mean 'length'?",
  ]);
  assert.deepEqual(read('error[E0382]: borrow of moved value\nhelp: consider cloning the value'), [-1, 'consider cloning the value']);
  assert.deepEqual(
    read("x.c:3:5: error: implicit declaration of function 'puts'\nx.c:1:1: note: include '<stdio.h>' or provide a declaration of 'puts'"),
    [-1, "include '<stdio.h>'"],
  );
  assert.deepEqual(read('app.py:4: error: Incompatible types [assignment]\nFound 1 error in 1 file (checked 3 source files)'), [-1, null]);
  assert.deepEqual(read('Success: no issues found in 3 source files'), [1, null]);
  assert.deepEqual(read("  4:9  error  Expected '===' and instead saw '=='  eqeqeq\n✖ 1 problem (1 error, 0 warnings)"), [
    -1,
    "Expected '===' and instead saw '=='",
  ]);
});

test('HTTP and JSON: 2xx succeeds unless the body reports an error; 4xx/5xx fail', () => {
  assert.deepEqual(read('HTTP/1.1 200 OK\n\n{"id": 1}'), [1, null]);
  assert.deepEqual(read('HTTP/1.1 204 No Content'), [1, null]);
  assert.deepEqual(read('HTTP/1.1 500 Internal Server Error'), [-1, null]);
  assert.deepEqual(read('HTTP/2 401\n\n{"error":"unauthorized"}'), [-1, null]);
  assert.deepEqual(read('HTTP/1.1 200 OK\n\n{"ok":false,"error":"not_in_channel"}'), [-1, null]);
  // Waiting is not a fix of the answer: a 429's Retry-After or "retry after 30 s" is never a hint.
  assert.deepEqual(read('HTTP/1.1 429 Too Many Requests\nRetry-After: 30'), [-1, null]);
  assert.deepEqual(read('HTTP/1.1 429 Too Many Requests\n\n{"error":{"message":"Rate limit exceeded. Retry after 30 seconds."}}'), [
    -1,
    null,
  ]);
  assert.deepEqual(read('HTTP/1.1 400 Bad Request\n\n{"errors":[{"field":"title","message":"is required"}]}'), [-1, 'title is required']);
});

test('the shell: fatal messages and non-zero exit codes fail; information is neutral', () => {
  assert.deepEqual(read('bash: kubctl: command not found'), [-1, null]);
  assert.deepEqual(read('[ 812.1] Out of memory: Killed process 4121 (python3)'), [-1, null]);
  assert.deepEqual(read('$ ./run.sh\n$ echo $?\n124'), [-1, null]);
  assert.deepEqual(read('{"exit_code": 1, "stdout": "", "stderr": ""}'), [-1, null]);
  assert.deepEqual(read('Python 3.11.4'), [0, null]);
  assert.deepEqual(read(''), [0, null]);
  assert.deepEqual(read('[]'), [0, null]);
  assert.deepEqual(read('2024-01-01 12:00:00 INFO server ready'), [0, null]);
  assert.deepEqual(read('make: Nothing to be done for `all`.'), [0, null]);
  assert.deepEqual(read('Hello, world!'), [1, null]);
});

test('git, SQL, package managers, deploy tools', () => {
  assert.deepEqual(read('On branch main\nnothing to commit, working tree clean'), [0, null]);
  assert.deepEqual(read('commit 3f2a1c9d\nAuthor: A <a@b.c>\nDate:   Mon\n\n    fix typo'), [0, null]);
  assert.deepEqual(
    read('CONFLICT (content): Merge conflict in app.py\nAutomatic merge failed; fix conflicts and then commit the result.'),
    [-1, 'fix conflicts and then commit the result'],
  );
  assert.deepEqual(read('ERROR:  relation "user" does not exist\nHINT:  Did you mean "users"?'), [-1, 'Did you mean "users"?']);
  assert.deepEqual(read('UPDATE 3'), [1, null]);
  assert.deepEqual(read('(0 rows)'), [0, null]);
  assert.deepEqual(read('Requirement already satisfied: requests in ./venv/lib'), [0, null]);
  assert.deepEqual(read('Successfully installed requests-2.32.0'), [1, null]);
  assert.deepEqual(read('E: Unable to locate package pyhton3'), [-1, null]);
  assert.deepEqual(read('deployment.apps/web configured'), [1, null]);
  assert.deepEqual(read('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.'), [1, null]);
});

test('a failing test: the runner’s own assertion or expected value, as printed, is the hint', () => {
  const pytest = [
    '    def test_refund_is_negative(ledger):',
    '        entry = ledger.refund(order_id=7)',
    '>       assert entry.amount < 0',
    'E       assert 12.5 < 0',
    'E        +  where 12.5 = <Entry>.amount',
    '',
    'tests/test_ledger.py:88: AssertionError',
    '===================== 1 failed, 9 passed in 0.31s =====================',
  ].join('\n');
  assert.deepEqual(read(pytest), [-1, 'assert entry.amount < 0']);
  // Without the source excerpt: the `E` line, without its prefix.
  assert.deepEqual(read('E       assert 3 == 4\n=========== 1 failed in 0.02s ==========='), [-1, 'assert 3 == 4']);
  const junit = [
    '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0 <<< FAILURE!',
    'org.opentest4j.AssertionFailedError: expected: <7.25> but was: <7.2>',
    '[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0',
    '[INFO] BUILD FAILURE',
  ].join('\n');
  assert.deepEqual(read(junit), [-1, 'expected: <7.25> but was: <7.2>']);
  const rspec = [
    '  1) Cart#total adds shipping',
    '     Failure/Error: expect(cart.total).to eq(54.9)',
    '',
    '       expected: 54.9',
    '            got: 49.9',
    '',
    '3 examples, 1 failure',
  ].join('\n');
  assert.deepEqual(read(rspec), [-1, 'expected 54.9']);
  assert.deepEqual(
    read(' FAIL  src/slug.test.ts\nAssertionError: expected "a-b" to be "a_b" // Object.is equality\n      Tests  1 failed | 4 passed (5)'),
    [-1, 'expected "a-b" to be "a_b"'],
  );
  assert.deepEqual(read('[INFO] Tests run: 30, Failures: 0, Errors: 0, Skipped: 1\n[INFO] BUILD SUCCESS'), [1, null]);
});

test('linters and formatters: each diagnostic fails; the fix they state is the hint', () => {
  assert.deepEqual(read('pkg/io.py:10:1: E303 too many blank lines (3)\npkg/io.py:40:80: E501 line too long (88 > 79 characters)'), [
    -1,
    null,
  ]);
  assert.deepEqual(read('lib/a.py:7:1: E305 expected 2 blank lines after function definition, found 0'), [
    -1,
    'expected 2 blank lines after function definition, found 0',
  ]);
  assert.deepEqual(read('src/x.py:1:8: F401 [*] `sys` imported but unused\nFound 1 error.\n[*] 1 fixable with the `--fix` option.'), [
    -1,
    '[*] 1 fixable with the `--fix` option',
  ]);
  assert.deepEqual(read('lib/tax.py:12: error: Argument 2 to "quote" has incompatible type "float"; expected "int"  [arg-type]'), [
    -1,
    'expected "int"',
  ]);
  assert.deepEqual(
    read('Checking formatting...\n[warn] web/app.css\n[warn] Code style issues found in the above file. Run Prettier with --write to fix.'),
    [-1, 'Run Prettier with --write to fix'],
  );
  assert.deepEqual(read('Checking formatting...\nAll matched files use Prettier code style!'), [1, null]);
  assert.deepEqual(read('would reformat app/main.py\nOh no! 1 file would be reformatted.'), [-1, null]);
  const maxWarnings = [
    '/srv/web/src/Feed.tsx',
    '  9:3  warning  Unexpected console statement. Remove it before shipping  no-console',
    '',
    '✖ 1 problem (0 errors, 1 warning)',
    '',
    'ESLint found too many warnings (maximum: 0).',
  ].join('\n');
  assert.deepEqual(read(maxWarnings), [-1, 'Remove it before shipping']);
});

test('compilers: the suggested code under `help:`, "did you forget …?", a command on the next line', () => {
  const rustc = [
    'error[E0308]: mismatched types',
    '  --> src/main.rs:4:18',
    '   |',
    '4  |     let x: i64 = total;',
    '   |                  ^^^^^ expected `i64`, found `i32`',
    'help: you can convert an `i32` to an `i64`',
    '   |',
    '4  |     let x: i64 = total.into();',
    '   |                       +++++++',
  ].join('\n');
  assert.deepEqual(read(rustc), [-1, 'total.into()']);
  assert.deepEqual(
    read(
      "io.c:5:3: error: unknown type name 'size_t'\nio.c:1:1: note: 'size_t' is defined in header '<stddef.h>'; did you forget to '#include <stddef.h>'?",
    ),
    [-1, "did you forget to '#include <stddef.h>'?"],
  );
  assert.deepEqual(
    read(
      'cmd/api/main.go:9:2: no required module provides package golang.org/x/sync/errgroup; to add it:\n\tgo get golang.org/x/sync/errgroup',
    ),
    [-1, 'go get golang.org/x/sync/errgroup'],
  );
  assert.deepEqual(read("Shape.java:3: error: ';' expected\n    int sides = 4\n                 ^\n1 error"), [-1, "';' expected"]);
});

test('compilers: the changed expression stands for the code; a quoted token, a question, a requirement', () => {
  const moved = [
    'error[E0382]: use of moved value: `opts`',
    'help: consider cloning the value if the performance cost is acceptable',
    '   |',
    '41 |     let worker = Worker::spawn(opts.clone(), queue);',
    '   |                                    ++++++++',
  ];
  assert.deepEqual(read(moved.join('\n')), [-1, 'consider cloning the value if the performance cost is acceptable: opts.clone()']);
  // No markers under the code line: the line as printed.
  assert.deepEqual(read(moved.slice(0, 4).join('\n')), [
    -1,
    'consider cloning the value if the performance cost is acceptable: let worker = Worker::spawn(opts.clone(), queue);',
  ]);
  assert.deepEqual(read("lib/q.c:17:9: error: expected ';' before ')' token\n   17 |   x = y"), [-1, "expected ';' before ')' token"]);
  assert.deepEqual(
    read(
      "Svc/Jobs.cs(9,12): error CS0246: The type or namespace name 'Ticket' could not be found (are you missing a using directive or an assembly reference?) [Svc/Svc.csproj]\n\nBuild FAILED.",
    ),
    [-1, 'are you missing a using directive?'],
  );
  assert.deepEqual(
    read('Loader.java:12: error: unreported exception SQLException; must be caught or declared to be thrown\n        db.open();\n1 error'),
    [-1, 'must be caught or declared to be thrown'],
  );
});

test('a failed snapshot test: the command the summary says to run, and what it does', () => {
  const snapshot = [
    ' FAIL  src/ui/Card.spec.tsx',
    '  ● Card › renders title',
    '    expect(received).toMatchSnapshot()',
    ' › 2 snapshots failed.',
    'Snapshot Summary',
    ' › 2 snapshots failed from 1 test suite. Inspect your code changes or run `yarn jest -u` to update them.',
    '',
    'Tests:       2 failed, 12 passed, 14 total',
  ];
  assert.deepEqual(read(snapshot.join('\n')), [-1, 'run `yarn jest -u` to update them']);
});

test('the fix the shell or a package manager states: the suggestion itself, not the question', () => {
  const npm = [
    'npm ERR! Missing script: "lnt"',
    'npm ERR!',
    'npm ERR! Did you mean this?',
    'npm ERR!     npm run lint # lint the sources',
  ].join('\n');
  assert.deepEqual(read(npm), [-1, 'npm run lint # lint the sources']);
  const python = [
    'Traceback (most recent call last):',
    '  File "sync.py", line 3, in <module>',
    '    time.sleep(1)',
    "NameError: name 'time' is not defined. Did you forget to import 'time'?",
  ];
  assert.deepEqual(read(python.join('\n')), [-1, "Did you forget to import 'time'?"]);
  const eresolve = [
    'npm ERR! code ERESOLVE',
    'npm ERR! Fix the upstream dependency conflict, or retry',
    'npm ERR! this command with --force or --legacy-peer-deps',
  ];
  // Five writers of six quote the first fix npm names (heldout-3 and heldout-5 quote the retry).
  assert.deepEqual(read(eresolve.join('\n')), [-1, 'Fix the upstream dependency conflict']);
  const composer = [
    'Your lock file does not contain a compatible set of packages. Please run composer update.',
    '',
    '  Problem 1',
    '    - Root composer.json requires php >=8.3 but your php version (8.2.4) does not satisfy that requirement.',
  ];
  assert.deepEqual(read(composer.join('\n')), [-1, 'Root composer.json requires php >=8.3']);
  const rails = [
    'Error:',
    'OrderTest#test_total:',
    'ActiveRecord::PendingMigrationError:',
    '',
    '  Migrations are pending. To resolve this issue, run:',
    '',
    '        bin/rails db:migrate RAILS_ENV=test',
  ];
  assert.deepEqual(read(rails.join('\n')), [-1, 'bin/rails db:migrate RAILS_ENV=test']);
});

test('git: the first thing its advice says to do', () => {
  const rebase = [
    'CONFLICT (content): Merge conflict in lib/rates.rb',
    'error: could not apply 1f2e3d4... Use banker rounding',
    'hint: Resolve all conflicts manually, mark them as resolved with',
    'hint: "git add/rm <conflicted_files>", then run "git rebase --continue".',
    'hint: You can instead skip this commit: run "git rebase --skip".',
    'hint: To abort and get back to the state before "git rebase", run "git rebase --abort".',
  ];
  const [score, hint] = read(rebase.join('\n'));
  assert.equal(score, -1);
  assert.match(String(hint), /^Resolve all conflicts manually, mark them as resolved with/);
  const push = [
    ' ! [rejected]        dev -> dev (fetch first)',
    "error: failed to push some refs to 'git.example.org:team/app.git'",
    'hint: Updates were rejected because the remote contains work that you do not',
    'hint: have locally. You may want to first integrate the remote changes',
    "hint: (e.g., 'git pull ...') before pushing again.",
    "hint: See the 'Note about fast-forwards' in 'git push --help' for details.",
  ];
  assert.deepEqual(read(push.join('\n')), [-1, "You may want to first integrate the remote changes 'git pull ...'"]);
});

test('HTTP errors: the message’s own advice, a field’s message; never the Retry-After header', () => {
  assert.deepEqual(read('HTTP/1.1 413 Payload Too Large\n\n{"message":"Files over 5 MB are refused; split the archive into parts."}'), [
    -1,
    'split the archive into parts',
  ]);
  assert.deepEqual(read('HTTP/1.1 422 Unprocessable Entity\n\n{"errors":[{"field":"quantity","message":"must be greater than 0"}]}'), [
    -1,
    'quantity must be greater than 0',
  ]);
  assert.deepEqual(read('HTTP/1.1 400 Bad Request\n\n{"error":{"param":"sku","message":"Missing required parameter: sku."}}'), [
    -1,
    'Missing required parameter: sku',
  ]);
  assert.deepEqual(read('HTTP/1.1 503 Service Unavailable\nRetry-After: 90\n\n<h1>down for maintenance</h1>'), [-1, null]);
});

test('a CLI that is not signed in fails; the phrase naming the sign-in command is the hint', () => {
  assert.deepEqual(read('To get started with GitHub CLI, please run:  gh auth login'), [-1, 'please run: gh auth login']);
  assert.deepEqual(
    read("Error response from daemon: pull access denied for team/api, repository does not exist or may require 'docker login'"),
    [-1, "may require 'docker login'"],
  );
});

test('git: the action after "If you want to …,", a checkout over local changes, a mistyped subcommand', () => {
  const push = [
    ' ! [rejected]        trunk -> trunk (non-fast-forward)',
    "error: failed to push some refs to 'git.example.org:ops/infra.git'",
    'hint: Updates were rejected because the tip of your current branch is behind',
    'hint: its remote counterpart. If you want to integrate the remote changes,',
    "hint: use 'git pull --rebase' before pushing again.",
    "hint: See the 'Note about fast-forwards' in 'git push --help' for details.",
  ];
  assert.deepEqual(read(push.join('\n')), [-1, "use 'git pull --rebase' before pushing again"]);
  const checkout = [
    'error: Your local changes to the following files would be overwritten by checkout:',
    '\tlib/billing.rb',
    'Please commit your changes or stash them before you switch branches.',
    'Aborting',
  ];
  assert.deepEqual(read(checkout.join('\n')), [-1, 'commit your changes or stash them']);
  assert.deepEqual(read("git: 'comit' is not a git command. See 'git --help'.\n\nThe most similar command is\n\tcommit"), [-1, 'commit']);
});

test('package managers: the action a condition leads to, pnpm\'s `use "…"`, a build log\'s npm lines joined cleanly', () => {
  const pip = [
    'error: externally-managed-environment',
    '',
    '× This environment is externally managed',
    '╰─> To install Python packages system-wide, try apt install',
    '    python3-xyz, where xyz is the package you are trying to',
    '    install.',
    '',
    '    If you wish to install a non-Debian-packaged Python package,',
    '    create a virtual environment using python3 -m venv ~/envs/tools.',
    '    Then use ~/envs/tools/bin/python and ~/envs/tools/bin/pip. Make',
    '    sure you have python3-full installed.',
  ];
  assert.deepEqual(read(pip.join('\n')), [-1, 'create a virtual environment using python3 -m venv ~/envs/tools']);
  const pnpm = [
    ' ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with apps/web/package.json',
    '',
    'Note that in CI environments this setting is true by default. If you still need to run install in such cases, use "pnpm i --no-frozen-lockfile"',
  ];
  assert.deepEqual(read(pnpm.join('\n')), [-1, 'use "pnpm i --no-frozen-lockfile"']);
  const docker = [
    ' => ERROR [deps 3/5] RUN npm ci                                          2.2s',
    '#9 1.204 npm ERR! code EUSAGE',
    '#9 1.206 npm ERR! The `npm ci` command needs an existing lockfile with lockfileVersion >= 1.',
    '#9 1.207 npm ERR! Run an install with npm@5 or',
    '#9 1.207 npm ERR! later to generate a package-lock.json file, then try again.',
  ];
  assert.deepEqual(read(docker.join('\n')), [-1, 'Run an install with npm@5 or later to generate a package-lock.json file']);
});

test('the shell: "try setting X=Y", a lower-case "please …" after a semicolon', () => {
  const oom = [
    'Traceback (most recent call last):',
    '  File "fit.py", line 88, in <module>',
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.6 to avoid fragmentation.',
  ];
  assert.deepEqual(read(oom.join('\n')), [-1, 'try setting PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.6']);
  const alembic =
    "ERROR [alembic.util.messaging] Multiple head revisions are present for given argument 'head'; please specify a specific target revision, '<branchname>@head' to narrow to a specific head, or 'heads' for all heads";
  assert.deepEqual(read(alembic), [-1, 'please specify a specific target revision']);
});

test('a dry run previews (no verdict); an aws s3 transfer listing is work done', () => {
  const rsync = [
    'sending incremental file list',
    'music/2023/track01.flac',
    'deleting music/tmp/cover.jpg',
    '',
    'sent 812 bytes  received 40 bytes  1,704.00 bytes/sec',
    'total size is 1.02G  speedup is 1,197,183.10 (DRY RUN)',
  ];
  assert.deepEqual(read(rsync.join('\n')), [0, null]);
  assert.deepEqual(read('statefulset.apps/cache configured (dry run)\nsecret/cache-auth created (dry run)'), [0, null]);
  assert.deepEqual(read('[dry-run] 412 rows would be archived\n[dry-run] nothing written'), [0, null]);
  assert.deepEqual(read('[dry-run] error: could not reach db-replica-2:5432'), [-1, null]);
  const s3 = [
    'upload: build/main.css to s3://docs-site-stage/main.css',
    'upload: build/index.html to s3://docs-site-stage/index.html',
    'delete: s3://docs-site-stage/old.html',
  ];
  assert.deepEqual(read(s3.join('\n')), [1, null]);
  assert.deepEqual(read('upload failed: build/a.zip to s3://b/a.zip An error occurred (AccessDenied)'), [-1, null]);
});

test('round 5: make and brew errors fail; dpkg, docker, terraform and CMake state their first fix', () => {
  assert.deepEqual(read("make: *** No rule to make target 'instal'.  Stop."), [-1, null]);
  assert.equal(read('Warning: No available formula with the name "nodjs". Did you mean node?')[0], -1);
  assert.deepEqual(read("E: dpkg was interrupted, you must manually run 'sudo dpkg --configure -a' to correct the problem."), [
    -1,
    'sudo dpkg --configure -a',
  ]);
  assert.deepEqual(
    read(
      'docker: Error response from daemon: Conflict. The container name "/redis-dev" is already in use by container "ab12". You have to remove (or rename) that container to be able to reuse that name.',
    ),
    [-1, 'You have to remove (or rename) that container'],
  );
  const terraform = [
    '╷',
    '│ Error: Inconsistent dependency lock file',
    '│',
    '│ To make the initial dependency selections, run:',
    '│   terraform init',
    '╵',
  ];
  assert.deepEqual(read(terraform.join('\n')), [-1, 'terraform init']);
  const cmake = [
    'CMake Error at CMakeLists.txt:9 (find_package):',
    '  Could not find a package configuration file provided by "spdlog".',
    '  Add the installation prefix of "spdlog" to CMAKE_PREFIX_PATH or set "spdlog_DIR" to a directory containing one of the above files.',
  ];
  assert.deepEqual(read(cmake.join('\n')), [-1, 'Add the installation prefix of "spdlog" to CMAKE_PREFIX_PATH']);
  // A build that passed with a warning's advice: done, no hint.
  assert.deepEqual(
    read(
      'warning: unused variable: `x`\n  = help: if this is intentional, prefix it with an underscore: `_x`\n    Finished dev [unoptimized] target(s) in 0.91s',
    ),
    [1, null],
  );
});

test('a command shown on its own line after "run:" beats a "Did you mean" question; advice that opens a paragraph is found', () => {
  assert.deepEqual(
    read(
      'Warning: No available formula with the name "nodjs". Did you mean node?\n==> Formulae\nnode@20\n\nTo install node@20, run:\n  brew install node@20',
    ),
    [-1, 'brew install node@20'],
  );
  assert.deepEqual(
    read(
      'CMake Error at CMakeLists.txt:9 (find_package):\n  Could not find a package configuration file provided by "spdlog" with any of\n  the following names:\n\n    spdlogConfig.cmake\n    spdlog-config.cmake\n\n  Add the installation prefix of "spdlog" to CMAKE_PREFIX_PATH or set\n  "spdlog_DIR" to a directory containing one of the above files.\n\n-- Configuring incomplete, errors occurred!',
    ),
    [-1, 'Add the installation prefix of "spdlog" to CMAKE_PREFIX_PATH'],
  );
});

test('a single looked-up value and a preview inform; psql and C# state the fix in their own sentence', () => {
  assert.deepEqual(read(' sum\n------\n 7741\n(1 row)'), [0, null]);
  assert.deepEqual(read(' id | sku\n----+-----\n  4 | b-12\n(1 row)'), [1, null]);
  assert.deepEqual(read('Would remove dist/\nWould remove .cache/'), [0, null]);
  assert.deepEqual(
    read(
      'ERROR:  operator does not exist: text = integer\nHINT:  No operator matches the given name and argument types. You might need to add explicit type casts.',
    ),
    [-1, 'You might need to add explicit type casts'],
  );
  assert.deepEqual(read('HINT:  Perhaps you meant to reference the column "pets.owner_id".\nERROR:  column "owner" does not exist'), [
    -1,
    'reference the column "pets.owner_id"',
  ]);
  assert.deepEqual(
    read(
      "Api/Startup.cs(4,7): error CS0246: The type or namespace name 'Serilog' could not be found (are you missing a using directive or an assembly reference?)",
    ),
    [-1, 'are you missing a using directive?'],
  );
});

test('rustc: the help that shows code wins; a line it adds whole, or code an option sentence describes, stands alone', () => {
  assert.deepEqual(
    read(
      "error[E0277]: `Invoice` doesn't implement `Debug`\n   = help: the trait `Debug` is not implemented for `Invoice`\nhelp: consider annotating `Invoice` with `#[derive(Debug)]`\n   |\n7  + #[derive(Debug)]\n8  | struct Invoice {\n   |",
    ),
    [-1, '#[derive(Debug)]'],
  );
  assert.deepEqual(
    read(
      "error[E0308]: mismatched types\nhelp: you can convert an `i64` to a `u16` and panic if the converted value doesn't fit\n   |\n9  |     let port: u16 = read_port(&cfg).try_into().unwrap();\n   |                                    ++++++++++++++++++++\nerror: could not compile `relay`",
    ),
    [-1, '.try_into().unwrap()'],
  );
  assert.deepEqual(read('error[E0382]: use of moved value: `opts`\n   = help: the trait `Copy` is not implemented for `Opts`'), [
    -1,
    'the trait `Copy` is not implemented for `Opts`',
  ]);
});

test('a lint diagnostic whose message is the rule to follow is the hint; a fixable count still wins', () => {
  assert.deepEqual(read('svc/jobs.py:88:9: E722 Do not use bare `except`\nFound 1 error.'), [-1, 'Do not use bare `except`']);
  assert.deepEqual(
    read(
      'svc/jobs.py:2:8: F401 [*] `sys` imported but unused\nsvc/jobs.py:88:9: E722 Do not use bare `except`\nFound 2 errors.\n[*] 1 fixable with the `--fix` option.',
    ),
    [-1, '[*] 1 fixable with the `--fix` option'],
  );
});

test('terraform names the required argument; a usage line printed with a failure is the hint', () => {
  assert.deepEqual(
    read(
      'Error: Missing required argument\n\n  on net/main.tf line 3, in resource "aws_subnet" "a":\n   3: resource "aws_subnet" "a" {\n\nThe argument "vpc_id" is required, but no definition was found.',
    ),
    [-1, 'The argument "vpc_id" is required'],
  );
  assert.deepEqual(read('./sync.sh: line 7: TARGET: unbound variable\nusage: ./sync.sh <src> <dest>\nexit status 2'), [
    -1,
    'usage: ./sync.sh <src> <dest>',
  ]);
});

test('an action the output names as the fix ("…; set X=Y to fix") is the hint', () => {
  assert.deepEqual(
    read(
      'worker: cannot reach redis at 127.0.0.1:6380: connection refused\nworker: redis runs on 6379 here; set REDIS_PORT=6379 to fix\n[exit 1]',
    ),
    [-1, 'set REDIS_PORT=6379'],
  );
});

test("Python's SyntaxError naming the token to close or add is the hint", () => {
  assert.deepEqual(read('  File "plot.py", line 9\n    xs = [1, 2, 3\n         ^\nSyntaxError: \'[\' was never closed'), [
    -1,
    "'[' was never closed",
  ]);
  assert.deepEqual(read('  File "cli.py", line 4\n    def main()\n              ^\nSyntaxError: expected \':\''), [-1, "expected ':'"]);
});

test("Python's guess after invalid syntax, tsc's `Try` command, ShellCheck's rule and eslint's --fix line are the hint", () => {
  assert.deepEqual(
    read('  File "cfg.py", line 3\n    d = {"a": 1 "b": 2}\n         ^^^^^^\nSyntaxError: invalid syntax. Perhaps you forgot a comma?'),
    [-1, 'Perhaps you forgot a comma?'],
  );
  assert.deepEqual(
    read(
      "src/db.ts:2:20 - error TS7016: Could not find a declaration file for module 'pg'.\n  Try `npm i --save-dev @types/pg` if it exists or add a new declaration (.d.ts) file containing `declare module 'pg';`\n\nFound 1 error in src/db.ts:2",
    ),
    [-1, 'npm i --save-dev @types/pg'],
  );
  assert.deepEqual(
    read(
      'In deploy.sh line 12:\ncp $SRC /opt/app\n   ^--^ SC2086 (info): Double quote to prevent globbing and word splitting.\n\nDid you mean:\ncp "$SRC" /opt/app',
    ),
    [-1, 'Double quote to prevent globbing and word splitting'],
  );
  assert.deepEqual(
    read(
      "/srv/web/src/cart.js\n  4:7  error  'total' is never reassigned. Use 'const' instead  prefer-const\n\n✖ 1 problem (1 error, 0 warnings)\n  1 error and 0 warnings potentially fixable with the `--fix` option.",
    ),
    [-1, 'fixable with the `--fix` option'],
  );
});

test('go: a module error fails and its indented command is the fix; a command-not-found suggestion drops the package version', () => {
  assert.deepEqual(read('go: updates to go.mod needed; to update it:\n        go mod tidy'), [-1, 'go mod tidy']);
  assert.deepEqual(read('go: downloading github.com/google/uuid v1.6.0\nok  \texample.com/app\t0.012s'), [1, null]);
  assert.deepEqual(
    read("Command 'pyhton3' not found, did you mean:\n  command 'python3' from deb python3 (3.11.2-1)\nTry: sudo apt install <deb name>"),
    [-1, "command 'python3' from deb python3"],
  );
});

test("tsc: a missing property's name is the hint, as the brief's missing field", () => {
  assert.deepEqual(
    read(
      "src/order.ts:12:7 - error TS2741: Property 'currency' is missing in type '{ amount: number; }' but required in type 'Price'.\n\nFound 1 error in src/order.ts:12",
    ),
    [-1, 'currency'],
  );
});

test("a quoted command after 'run' keeps its verb; git's untracked files in the way fail with what to do", () => {
  assert.deepEqual(read('Error: @prisma/client did not initialize yet. Please run "prisma generate" and try to import it again.'), [
    -1,
    'run "prisma generate"',
  ]);
  assert.deepEqual(
    read(
      'error: The following untracked working tree files would be overwritten by checkout:\n\tnotes.md\nPlease move or remove them before you switch branches.\nAborting',
    ),
    [-1, 'move or remove them'],
  );
});

test('round 7: an error body\'s "hint" field, "by running X in your terminal", "Run `X` to fix", swiftc\'s note, an inline rustc help, a mocha timeout, ctest', () => {
  assert.deepEqual(read('HTTP/1.1 422 Unprocessable Entity\n\n{"error":"invalid sort","hint":"use \'created_at\' or \'name\'"}'), [
    -1,
    "use 'created_at' or 'name'",
  ]);
  assert.deepEqual(read('error Corepack must currently be enabled by running corepack enable in your terminal.'), [-1, 'corepack enable']);
  assert.deepEqual(read('Resolving dependencies...\n\nThe lock file is out of date. Run `uv lock` to fix the lock file.'), [
    -1,
    'run `uv lock`',
  ]);
  assert.deepEqual(
    read(
      "Cart.swift:9:14: error: value of optional type 'Int?' must be unwrapped\nCart.swift:9:14: note: coalesce using '??' to provide a default when the optional value contains 'nil'",
    ),
    [-1, "coalesce using '??' to provide a default when the optional value contains 'nil'"],
  );
  assert.deepEqual(read('error[E0308]: mismatched types\n  |\n7 |     n\n  |     ^- help: try using a conversion method: `.to_string()`'), [
    -1,
    'try using a conversion method: `.to_string()`',
  ]);
  assert.deepEqual(
    read(
      '  1 passing (1s)\n  1 failing\n\n  1) api\n     Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure "done()" is called; if returning a Promise, ensure it resolves.',
    ),
    [-1, 'ensure "done()" is called; if returning a Promise, ensure it resolves'],
  );
  assert.deepEqual(read('100% tests passed, 0 tests failed out of 9\n\nTotal Test time (real) =   0.40 sec'), [1, null]);
  assert.deepEqual(read('89% tests passed, 1 tests failed out of 9'), [-1, null]);
});

test("round 8: clippy's docs link is no fix; a crate with a similar name is named; a local variable's help stays whole", () => {
  assert.deepEqual(
    read(
      'warning: unneeded `return` statement\n --> src/lib.rs:4:5\n  |\n  = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_return\nhelp: remove `return`\n\nerror: could not compile `x` due to 1 previous error',
    ),
    [-1, 'remove `return`'],
  );
  assert.deepEqual(
    read('error[E0432]: unresolved import `serde_jsn`\n  |\n  = help: there is a crate or module with a similar name: `serde_json`'),
    [-1, 'serde_json'],
  );
  assert.deepEqual(
    read('error[E0425]: cannot find value `totl` in this scope\n  = help: a local variable with a similar name exists: `total`'),
    [-1, 'a local variable with a similar name exists: `total`'],
  );
});

test('assistant tools: walls, sold out, declined, partial success fail; confirmations succeed; an empty search informs', () => {
  assert.deepEqual(read('Just a moment...\nChecking your browser before accessing booking.example.com'), [-1, null]);
  assert.deepEqual(read('Sign in to continue to Calendar'), [-1, null]);
  assert.deepEqual(read('Esaurito - Scarpe da corsa, taglia 42'), [-1, null]);
  assert.deepEqual(read('{"error":{"type":"card_error","code":"card_declined","message":"Your card was declined."}}'), [-1, null]);
  assert.deepEqual(read('{"status":"cancelled","reason":"user_declined"}'), [-1, null]);
  assert.deepEqual(read('Sent 3 of 5 messages'), [-1, null]);
  assert.deepEqual(read('{"sent":3,"failed":2}'), [-1, null]);
  assert.deepEqual(read('{"code":21211,"message":"The \'To\' number is not a valid phone number.","status":400}'), [-1, null]);
  assert.deepEqual(read('{"id":"evt_81","status":"confirmed","summary":"Dentist"}'), [1, null]);
  assert.deepEqual(read('Sent 5 of 5 messages'), [1, null]);
  assert.deepEqual(read('{"items":[],"nextPageToken":null}'), [0, null]);
  // A rollout's progress line is not a partial success.
  assert.deepEqual(
    read(
      'Waiting for deployment "api" rollout to finish: 2 of 3 updated replicas are available...\ndeployment "api" successfully rolled out',
    )[0],
    1,
  );
});

test('assistant pages: not submitted, a search that suggests another spelling, an error status in Portuguese, a plain 502', () => {
  assert.deepEqual(read('There is a problem\nDate of birth must be a real date\nYour application has not been submitted.')[0], -1);
  assert.deepEqual(read("No stations found for 'Frankfort'.\nDid you mean: Frankfurt (Main) Hbf?"), [
    -1,
    'Did you mean: Frankfurt (Main) Hbf?',
  ]);
  assert.deepEqual(read('{"query":"ibuprofen 600","results":[],"did_you_mean":"ibuprofen 600 mg"}'), [-1, 'did you mean ibuprofen 600 mg']);
  assert.deepEqual(read('HTTP/1.1 200 OK\n{"status": "ERRO", "mensagem": "Chave Pix não encontrada."}')[0], -1);
  assert.deepEqual(read('502 Bad Gateway\nnginx/1.24.0'), [-1, null]);
  assert.deepEqual(read('DRY RUN - no changes made\nWould move 40 messages to label "Receipts"'), [0, null]);
  assert.deepEqual(read('Aperçu (non envoyé)\nÀ : l.haddad@example.fr\nObjet : Absence'), [0, null]);
});

test('a confirmation declined by the user in snake case, or an action not executed, is a failure', () => {
  assert.deepEqual(read('{"action":"send_money","status":"declined_by_user","executed":false}'), [-1, null]);
  assert.deepEqual(read('{"id":"op_7","state":"cancelled_by_user"}'), [-1, null]);
});
