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
