import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readToolOutputByRules } from './index.ts';

// The parsers' own verdicts and stated fixes (the hint-span ranker over them: hint-span.test.ts).
const read = (text: string) => {
  const r = readToolOutputByRules(text);
  return [r.score, r.hint];
};

test('test runners: failures next to "passed" fail; the expected value is the hint', () => {
  assert.deepEqual(read('FAILED t.py::test_x - assert 1 == 2\n==== 1 failed, 41 passed in 0.50s ===='), [-1, null]);
  assert.deepEqual(read('======= 12 passed, 1 warning in 0.20s ======='), [1, null]);
  assert.deepEqual(read('Tests:       2 failed, 40 passed, 42 total\n    Expected: 90\n    Received: 85'), [-1, 'expected 90']);
  assert.deepEqual(read(' Test Files  1 passed (1)\n      Tests  9 passed (9)'), [1, null]);
  assert.deepEqual(read('  3 passing (20ms)\n  1 failing\n  AssertionError: expected 4 to equal -5'), [-1, 'expected -5']);
  assert.deepEqual(read('--- FAIL: TestSum (0.00s)\n    sum_test.go:9: got 7, want 10\nFAIL'), [-1, 'want 10']);
  assert.deepEqual(read('test result: FAILED. 3 passed; 1 failed; 0 ignored'), [-1, null]);
  assert.deepEqual(read('test result: ok. 4 passed; 0 failed; 0 ignored'), [1, null]);
});

test('compilers and type checkers: errors fail, the stated fix is the hint', () => {
  assert.deepEqual(read("a.ts(3,5): error TS2551: Property 'lenght' does not exist. Did you mean 'length'?"), [-1, "use 'length'"]);
  assert.deepEqual(read('error[E0382]: borrow of moved value\nhelp: consider cloning the value'), [-1, 'consider cloning the value']);
  assert.deepEqual(
    read("x.c:3:5: error: implicit declaration of function 'puts'\nx.c:1:1: note: include '<stdio.h>' or provide a declaration of 'puts'"),
    [-1, "include '<stdio.h>'"],
  );
  assert.deepEqual(read('app.py:4: error: Incompatible types [assignment]\nFound 1 error in 1 file (checked 3 source files)'), [-1, null]);
  assert.deepEqual(read('Success: no issues found in 3 source files'), [1, null]);
  assert.deepEqual(read("  4:9  error  Expected '===' and instead saw '=='  eqeqeq\n✖ 1 problem (1 error, 0 warnings)"), [
    -1,
    'use === instead of ==',
  ]);
});

test('HTTP and JSON: 2xx succeeds unless the body reports an error; 4xx/5xx fail', () => {
  assert.deepEqual(read('HTTP/1.1 200 OK\n\n{"id": 1}'), [1, null]);
  assert.deepEqual(read('HTTP/1.1 204 No Content'), [1, null]);
  assert.deepEqual(read('HTTP/1.1 500 Internal Server Error'), [-1, null]);
  assert.deepEqual(read('HTTP/2 401\n\n{"error":"unauthorized"}'), [-1, null]);
  assert.deepEqual(read('HTTP/1.1 200 OK\n\n{"ok":false,"error":"not_in_channel"}'), [-1, null]);
  assert.deepEqual(read('HTTP/1.1 429 Too Many Requests\nRetry-After: 30'), [-1, 'wait 30 seconds before retrying']);
  assert.deepEqual(read('HTTP/1.1 400 Bad Request\n\n{"errors":[{"field":"title","message":"is required"}]}'), [
    -1,
    'include the required field title',
  ]);
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
    [-1, null],
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
