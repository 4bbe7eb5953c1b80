import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryDelay } from './retry.ts';

const NOW = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

test('retryable statuses and connection errors back off 250, 500, 1000 ms … capped at 8 s', () => {
  for (const status of [408, 409, 429, 500, 502, 503, 504, undefined]) {
    assert.equal(retryDelay({ status, attempt: 0, maxRetries: 20 }, NOW), 250, `status ${status}`);
    assert.equal(retryDelay({ status, attempt: 1, maxRetries: 20 }, NOW), 500);
    assert.equal(retryDelay({ status, attempt: 2, maxRetries: 20 }, NOW), 1000);
    assert.equal(retryDelay({ status, attempt: 5, maxRetries: 20 }, NOW), 8000);
    assert.equal(retryDelay({ status, attempt: 10, maxRetries: 20 }, NOW), 8000);
  }
});

test('client errors are never retried, hint or not', () => {
  for (const status of [400, 401, 403, 404, 413, 422, 501]) {
    assert.equal(retryDelay({ status, attempt: 0, maxRetries: 3 }, NOW), null, `status ${status}`);
    assert.equal(retryDelay({ status, headers: { 'retry-after': '1' }, attempt: 0, maxRetries: 3 }, NOW), null);
  }
});

test('the attempt limit: attempt n may retry only while n < maxRetries', () => {
  assert.equal(retryDelay({ status: 503, attempt: 0, maxRetries: 0 }, NOW), null);
  assert.equal(retryDelay({ status: 503, attempt: 1, maxRetries: 2 }, NOW), 500);
  assert.equal(retryDelay({ status: 503, attempt: 2, maxRetries: 2 }, NOW), null);
  assert.equal(retryDelay({ attempt: 2, maxRetries: 2 }, NOW), null, 'connection errors too');
  assert.equal(
    retryDelay({ status: 429, headers: { 'retry-after-ms': '5' }, attempt: 2, maxRetries: 2 }, NOW),
    null,
    'a hint does not lift the limit',
  );
});

test('retry-after in seconds (integer or decimal), uncapped: the caller deadline decides', () => {
  const d = (v: string) => retryDelay({ status: 429, headers: { 'retry-after': v }, attempt: 0, maxRetries: 2 }, NOW);
  assert.equal(d('2'), 2000);
  assert.equal(d(' 3 '), 3000);
  assert.equal(d('1.5'), 1500);
  assert.equal(d('0'), 0);
  assert.equal(d('3600'), 3_600_000);
});

test('retry-after as an HTTP date is relative to now; a past date means now', () => {
  const d = (v: string) => retryDelay({ status: 503, headers: { 'retry-after': v }, attempt: 0, maxRetries: 2 }, NOW);
  assert.equal(d('Wed, 21 Oct 2015 07:28:03 GMT'), 3000);
  assert.equal(d('Wed, 21 Oct 2015 07:27:00 GMT'), 0);
});

test('retry-after-ms wins over retry-after; negative means now', () => {
  const d = (headers: Record<string, string | string[]>) => retryDelay({ status: 429, headers, attempt: 1, maxRetries: 2 }, NOW);
  assert.equal(d({ 'retry-after-ms': '1500' }), 1500);
  assert.equal(d({ 'retry-after-ms': '20', 'retry-after': '9' }), 20);
  assert.equal(d({ 'retry-after-ms': '-5' }), 0);
  assert.equal(d({ 'retry-after': ['3', '4'] }), 3000, 'first of repeated headers');
});

test('unreadable hints fall back to the exponential back-off', () => {
  const d = (headers: Record<string, string>) => retryDelay({ status: 429, headers, attempt: 1, maxRetries: 2 }, NOW);
  assert.equal(d({ 'retry-after': 'soon' }), 500);
  assert.equal(d({ 'retry-after': '' }), 500);
  assert.equal(d({ 'retry-after-ms': 'abc' }), 500);
  assert.equal(d({ 'retry-after-ms': '' }), 500);
  assert.equal(d({ 'retry-after-ms': ' ', 'retry-after': '2' }), 2000);
});
