import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenClawError } from '../errors/index.ts';
import { normalizeBaseUrl } from './base-url.ts';

const plain = { origin: 'http://h:1', prefix: '/v1', url: 'http://h:1/v1', root: '' };
const api = { origin: 'http://h:1', prefix: '/api/v1', url: 'http://h:1/api/v1', root: '/api' };

test('bare origin, /v1 and /v1/ all mean <origin>/v1', () => {
  for (const input of ['http://h:1', 'http://h:1/', 'http://h:1/v1', 'http://h:1/v1/', 'http://h:1/v1//']) {
    assert.deepEqual(normalizeBaseUrl(input), plain, input);
  }
});

test('/api and /api/v1 styles both end up at /api/v1', () => {
  for (const input of ['http://h:1/api', 'http://h:1/api/', 'http://h:1/api/v1', 'http://h:1/api/v1/']) {
    assert.deepEqual(normalizeBaseUrl(input), api, input);
  }
});

test('a doubled /v1 is undone', () => {
  assert.deepEqual(normalizeBaseUrl('http://h:1/v1/v1'), plain);
  assert.deepEqual(normalizeBaseUrl('http://h:1/v1/v1/'), plain);
  assert.deepEqual(normalizeBaseUrl('http://h:1/api/v1/v1'), api);
});

test('a full endpoint URL pasted as base URL is cut back to its base', () => {
  assert.deepEqual(normalizeBaseUrl('http://h:1/v1/chat/completions'), plain);
  assert.deepEqual(normalizeBaseUrl('http://h:1/v1/chat/completions/'), plain);
  assert.deepEqual(normalizeBaseUrl('http://h:1/api/v1/models'), api);
  assert.deepEqual(normalizeBaseUrl('http://h:1/v1/completions'), plain);
});

test('doubled slashes collapse; https and default ports keep their origin', () => {
  assert.deepEqual(normalizeBaseUrl('http://h:1//v1'), plain);
  assert.deepEqual(normalizeBaseUrl('https://api.example.com/openai/v1'), {
    origin: 'https://api.example.com',
    prefix: '/openai/v1',
    url: 'https://api.example.com/openai/v1',
    root: '/openai',
  });
  assert.equal(normalizeBaseUrl('http://example.com:80/v1').origin, 'http://example.com');
});

test('a URL without http(s) scheme is a config error naming the setting', () => {
  for (const input of ['localhost:8000/v1', '127.0.0.1:8000', 'ftp://h/v1', '']) {
    assert.throws(
      () => normalizeBaseUrl(input, 'rollout.base_url'),
      (e: unknown) => {
        assert.ok(e instanceof OpenClawError);
        assert.equal(e.kind, 'config');
        assert.match(e.message, /rollout\.base_url/);
        assert.match(e.message, /http:\/\/localhost:8000\/v1/);
        return true;
      },
      input,
    );
  }
});
