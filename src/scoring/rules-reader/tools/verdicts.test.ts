import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readToolOutput } from './index.ts';

const score = (text: string) => readToolOutput(text).score;

test('a write that changed no rows and a redirect where data was asked for fail', () => {
  assert.equal(score('DELETE 0'), -1);
  assert.equal(score('UPDATE 0'), -1);
  assert.equal(score('DELETE 2'), 1);
  const moved = readToolOutput('HTTP/2 308 Permanent Redirect\nlocation: https://shop.test/api/v3/items\ncontent-length: 0');
  assert.deepEqual([moved.score, moved.hint], [-1, 'location: https://shop.test/api/v3/items']);
  assert.equal(score('HTTP/1.1 304 Not Modified\nETag: "abc"'), 0);
});

test('Go compile errors fail; lint warnings alone and a finished image build pass; a plan and listings inform', () => {
  assert.equal(score('# example.com/shop/cmd/api\n./handler.go:31:9: undefined: parseOrder'), -1);
  assert.equal(
    score('lib/util.ts\n  4:1  warning  Missing return type  explicit-function-return-type\n\n✖ 1 problem (0 errors, 1 warning)'),
    1,
  );
  assert.equal(score('[+] Building 12.0s (9/9) FINISHED\n => exporting to image\n => => naming to docker.io/library/shop:2.0'), 1);
  assert.equal(score('  + aws_s3_bucket.logs will be created\n\nPlan: 1 to add, 0 to change, 0 to destroy.'), 0);
  assert.equal(score('main.rs\nlib.rs\nCargo.toml'), 0);
  assert.equal(score('  UID   PID  CMD\n  501   812  postgres\n  501   990  redis-server'), 0);
});

test('a test run that ran nothing fails; a run that announces its tests has not passed yet', () => {
  assert.equal(score('platform linux -- Python 3.12.0, pytest-8.1.0\ncollected 0 items\n\n======= no tests ran in 0.01s ======='), -1);
  assert.equal(score('collected 40 items / 40 deselected / 0 selected\n\n======= 40 deselected in 0.12s ======='), -1);
  assert.equal(score('No tests found, exiting with code 1\nRun with `--passWithNoTests` to exit with code 0'), -1);
  assert.equal(
    score(
      'Running 64 tests in parallel using 8 processes\nRun options: --seed 1\n\nE\n\nError:\nUserTest#test_name:\nNameError: uninitialized constant User',
    ),
    -1,
  );
});

test('an empty listing is information; a write that matched no row fails, in mysql too', () => {
  assert.equal(score('HTTP/1.1 200 OK\nContent-Type: application/json\n\n[]'), 0);
  assert.equal(score('HTTP/2 200\ncontent-type: application/json\n\n{"project":"atlas","members":[]}'), 0);
  assert.equal(score('HTTP/1.1 200 OK\n\n{"id":12,"labels":[]}'), 1);
  assert.equal(score('mysql> DELETE FROM carts WHERE user_id = 991;\nQuery OK, 0 rows affected (0.00 sec)'), -1);
  assert.equal(score('Query OK, 0 rows affected (0.00 sec)\nRows matched: 0  Changed: 0  Warnings: 0'), -1);
  assert.equal(score('Query OK, 2 rows affected (0.01 sec)\nRows matched: 2  Changed: 2  Warnings: 0'), 1);
});

test('deploy tools: ansible by its recap, compose by its container lines, a missing sign-in or migration fails', () => {
  const recap = (failed: number) =>
    `PLAY RECAP ****\napp-1                      : ok=7    changed=2    unreachable=0    failed=${failed}    skipped=0`;
  assert.equal(score(recap(0)), 1);
  assert.equal(score(`fatal: [app-1]: FAILED! => {"changed": false, "msg": "No package matching 'ngnix' found"}\n${recap(1)}`), -1);
  const failedTask = readToolOutput(
    `fatal: [app-1]: FAILED! => {"changed": false, "msg": "AnsibleUndefinedVariable: 'port' is undefined"}\n${recap(1)}`,
  );
  assert.equal(failedTask.hint, "'port' is undefined");
  assert.equal(score('[+] Running 2/2\n ✔ Network web_default  Created  0.1s\n ✔ Container web-app-1  Started  0.5s'), 1);
  assert.equal(score('[+] Running 1/2\n ✔ Container web-db-1   Started  0.5s\n ✘ Container web-app-1  Error    0.2s'), -1);
  assert.equal(score('To get started with GitHub CLI, please run:  gh auth login'), -1);
  assert.equal(score('Problem 1\n  - Root composer.json requires ext-intl * but it is missing from your system.'), -1);
});

test('formatters and linters in check mode fail on what they report', () => {
  assert.equal(
    score('Checking formatting...\n[warn] src/a.ts\n[warn] Code style issues found in the above file. Run Prettier with --write to fix.'),
    -1,
  );
  assert.equal(score('src/app.py:3:1: W391 blank line at end of file'), -1);
  assert.equal(score('✖ 2 problems (0 errors, 2 warnings)\n\nESLint found too many warnings (maximum: 0).'), -1);
});

test('a timestamped log: a line reporting work done passes; a tailed log informs', () => {
  assert.equal(score('[2025-02-11 17:02:40] loading rates.json\n[2025-02-11 17:02:41] saved reports/rates_q1.xlsx (88 rows)'), 1);
  assert.equal(score('2025/02/11 17:02:40 starting worker pool size=4\n2025/02/11 17:02:40 serving metrics on :9102'), 0);
  assert.equal(score('2025-02-11T17:02:40Z queue drained\n2025-02-11T17:02:41Z completed 312 jobs'), 1);
});

test('a shell transcript whose `$` line builds something, with no error after it, passes', () => {
  assert.equal(score('$ clang -O2 -o hist hist.c && ./hist data.bin\n  bucket  count\n  0-9     41\n  10-19   17'), 1);
  assert.equal(score('$ cargo build --release && ls target/release\nbuild\ndeps\nledger'), 1);
  assert.equal(score("$ gcc -o hist hist.c\nhist.c:4:1: error: unknown type name 'uint'"), -1);
  assert.equal(score('$ ./hist --version\nhist 0.4.2'), 0);
});

test('a crontab listing is information', () => {
  assert.equal(score('# backups\n30 3 * * * /srv/bin/backup.sh\n*/10 * * * 1-5 /srv/bin/poll.sh\n@reboot /srv/bin/warm.sh'), 0);
});

test('API envelopes: errors keyed by field fail, a "valido": false with a suggestion fails, code 0 with msg success passes', () => {
  assert.equal(
    score('{"message": "Invalid Form Body", "code": 50035, "errors": {"embeds": {"_errors": [{"code": "BASE_TYPE_REQUIRED"}]}}}'),
    -1,
  );
  assert.equal(score('{"valido": false, "mensaje": "Código postal desconocido. ¿Quisiste decir 28013?"}'), -1);
  assert.equal(score('{"code": 0, "msg": "success", "data": {"order_no": "A7731", "eta": "19:05"}}'), 1);
  assert.equal(score('{"errors": {}}'), 0, 'an empty errors object reports nothing');
});
