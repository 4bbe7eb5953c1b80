import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpenClawError } from '../errors/index.ts';
import { parseBaseUrl } from './base-url.ts';

test('parseBaseUrl returns the URL, or a config error naming the key, the value and an example', () => {
  assert.equal(parseBaseUrl('http://127.0.0.1:8000/x', 'tinker.base_url', 'e.g. http://HOST:8000').port, '8000');
  assert.throws(
    () => parseBaseUrl('localhost 8000', 'teacher.base_url', 'expected e.g. http://127.0.0.1:30000'),
    (err: unknown) =>
      err instanceof OpenClawError &&
      err.kind === 'config' &&
      err.message === 'teacher.base_url "localhost 8000" is not a URL (expected e.g. http://127.0.0.1:30000)',
  );
});
