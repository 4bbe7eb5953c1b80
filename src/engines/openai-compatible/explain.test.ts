import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainBadBody, explainHttpFailure, explainNetworkFailure, explainNotAStream, upstreamMessage } from './explain.ts';

const info = { channel: 'judge', url: 'http://gpu:8000/v1', model: 'qwen-judge' };

test('upstreamMessage reads OpenAI, FastAPI and plain bodies', () => {
  assert.equal(upstreamMessage('{"error":{"message":"bad key","type":"auth"}}'), 'bad key');
  assert.equal(upstreamMessage('{"error":"overloaded"}'), 'overloaded');
  assert.equal(upstreamMessage('{"detail":"Not Found"}'), 'Not Found');
  assert.equal(upstreamMessage('{"message":"nope"}'), 'nope');
  assert.equal(upstreamMessage('<html>\n  <body>502 Bad Gateway</body>\n</html>'), '<html> <body>502 Bad Gateway</body> </html>');
  assert.equal(upstreamMessage('x'.repeat(400)).length, 301, 'long bodies are cut to 300 characters plus an ellipsis');
});

test('401/403 name the channel key setting and warn about OAuth-only credentials', () => {
  const e401 = explainHttpFailure(info, 401, '{"error":{"message":"invalid token"}}');
  assert.equal(e401.status, 401);
  assert.equal(e401.kind, 'authentication');
  assert.match(e401.message, /judge\.api_key/);
  assert.match(e401.message, /OAuth-only credentials/);
  const oauth = explainHttpFailure(info, 403, '{"error":{"message":"OAuth tokens are not supported for this endpoint"}}');
  assert.equal(oauth.status, 403);
  assert.equal(oauth.kind, 'permission');
  assert.match(oauth.message, /credential is OAuth\/login-based/);
});

test('404 tells an unknown model from a wrong path', () => {
  const model = explainHttpFailure(info, 404, '{"error":{"message":"The model `qwen-judge` does not exist."}}');
  assert.equal(model.code, 'model_not_found');
  assert.match(model.message, /'qwen-judge'/);
  assert.match(model.message, /judge\.model_id/);
  const path = explainHttpFailure(info, 404, '404 page not found', { requestUrl: 'http://gpu:8000/v1/v1/chat/completions' });
  assert.equal(path.code, 'upstream_not_found');
  assert.match(path.message, /http:\/\/gpu:8000\/v1\/v1\/chat\/completions/);
  assert.match(path.message, /judge\.base_url/);
  assert.match(path.message, /'\/v1' missing or doubled/);
});

test('429 and 5xx keep their status and say how the retries went', () => {
  const exhausted = explainHttpFailure(info, 429, '{"error":{"message":"rate"}}', { attempts: 3 });
  assert.equal(exhausted.status, 429);
  assert.match(exhausted.message, /retries were exhausted after 3 attempts/);
  const tooLong = explainHttpFailure(info, 429, '', { attempts: 1, waitMs: 120_000 });
  assert.match(tooLong.message, /retry after 120 s, beyond judge\.timeout_s/);
  const e503 = explainHttpFailure(info, 503, '{"detail":"loading"}', { attempts: 2 });
  assert.equal(e503.status, 503);
  assert.match(e503.message, /HTTP 503 after 2 attempts: loading/);
  const e422 = explainHttpFailure(info, 422, '{"detail":"max_tokens too large"}');
  assert.equal(e422.status, 422);
  assert.equal(e422.kind, 'invalid_request');
  assert.match(e422.message, /max_tokens too large/);
});

test('network failures: refused, DNS, TLS, reset, timeout', () => {
  const err = (code: string, message = code) => Object.assign(new Error(message), { code });
  assert.match(explainNetworkFailure(info, err('ECONNREFUSED')).message, /connection refused.*running.*judge\.base_url/);
  assert.match(explainNetworkFailure(info, err('ENOTFOUND')).message, /does not resolve \(DNS ENOTFOUND\)/);
  assert.match(
    explainNetworkFailure(info, { cause: { code: 'EAI_AGAIN', message: 'getaddrinfo EAI_AGAIN gpu' } }).message,
    /does not resolve/,
  );
  assert.match(
    explainNetworkFailure(info, err('ERR_SSL_WRONG_VERSION_NUMBER')).message,
    /TLS handshake failed.*https:\/\/ for a plain-http server/,
  );
  assert.match(explainNetworkFailure(info, err('DEPTH_ZERO_SELF_SIGNED_CERT')).message, /certificate untrusted/);
  assert.match(explainNetworkFailure(info, err('ECONNRESET')).message, /reset/);
  const timeout = explainNetworkFailure(info, err('UND_ERR_CONNECT_TIMEOUT'));
  assert.equal(timeout.status, 504);
  assert.match(timeout.message, /judge\.timeout_s/);
  assert.equal(explainNetworkFailure(info, err('ECONNREFUSED')).status, 502);
});

test('a proxy in the environment is pointed out on network failures', () => {
  const saved = process.env.HTTPS_PROXY;
  process.env.HTTPS_PROXY = 'http://proxy.corp:3128';
  try {
    const e = explainNetworkFailure(info, Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    assert.match(e.message, /HTTPS_PROXY is set/);
    assert.match(e.message, /NO_PROXY/);
  } finally {
    if (saved === undefined) delete process.env.HTTPS_PROXY;
    else process.env.HTTPS_PROXY = saved;
  }
});

test('bodies that are not chat completions', () => {
  const bad = explainBadBody(info, '<html>login page</html>');
  assert.equal(bad.status, 502);
  assert.match(bad.message, /without 'choices'/);
  assert.match(bad.message, /login page/);
  const notStream = explainNotAStream(info, 'application/json', '{"choices":[{"message":{"content":"hi"}}]}');
  assert.equal(notStream.code, 'upstream_not_streaming');
  assert.match(notStream.message, /does not stream/);
  assert.equal(explainNotAStream(info, 'application/json', '{"detail":"x"}').code, 'upstream_bad_body');
});
