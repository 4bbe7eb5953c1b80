// HTTP(S)_PROXY / NO_PROXY for every outgoing client. The upstreams use host names that only the
// test proxy can resolve (`*.invalid`, RFC 6761), so an answer proves the request went through it;
// with NO_PROXY naming the host the client goes direct and fails on the name. Loopback targets
// never use the proxy, so a proxy set in CI's environment cannot capture the tests' own servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { proxyFor } from '../../src/http/proxy.ts';
import { OpenAICompatibleChannel } from '../../src/engines/openai-compatible/index.ts';
import { TinkerClient } from '../../src/engines/tinker/index.ts';
import { createHttpTeacher } from '../../src/scoring/index.ts';
import { requestAnswer } from '../../src/sim/client.ts';
import { ScriptedUpstream } from '../support/scripted-upstream.ts';
import { ScriptedTeacher } from '../support/scripted-teacher.ts';
import { startFakeTinker } from '../support/fake-tinker.ts';
import { TestProxy } from '../support/test-proxy.ts';
import { tempDir } from '../support/temp.ts';
import { runCli } from '../support/cli.ts';

const NO_PROXY_VARS = { http_proxy: '', https_proxy: '', no_proxy: '', HTTP_PROXY: '', HTTPS_PROXY: '', NO_PROXY: '' };
const port = (url: string) => new URL(url).port;

test('proxyFor: which requests go through which proxy', () => {
  const env = { HTTP_PROXY: 'http://proxy:3128', HTTPS_PROXY: 'http://sproxy:3128' };
  assert.equal(proxyFor('http://model.example:8000/v1', env), 'http://proxy:3128');
  assert.equal(proxyFor('https://api.example/v1', env), 'http://sproxy:3128');
  assert.equal(
    proxyFor('https://api.example/v1', { HTTP_PROXY: 'http://proxy:3128' }),
    'http://proxy:3128',
    'https falls back to HTTP_PROXY',
  );
  assert.equal(proxyFor('http://model.example', { http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:2' }), 'http://lower:1');
  assert.equal(proxyFor('http://model.example', {}), undefined);
  assert.equal(proxyFor('http://model.example', { HTTP_PROXY: '' }), undefined);
  assert.equal(
    proxyFor('http://model.example', { http_proxy: '', HTTP_PROXY: 'http://upper:2' }),
    'http://upper:2',
    'empty counts as unset',
  );
  for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', 'api.localhost', '[::1]'])
    assert.equal(proxyFor(`http://${host}:30000/v1`, env), undefined, `${host} is loopback: never proxied`);
  const no = (NO_PROXY: string, url: string) => proxyFor(url, { ...env, NO_PROXY });
  assert.equal(no('model.example', 'http://model.example:8000'), undefined);
  assert.equal(no('other.example', 'http://model.example:8000'), 'http://proxy:3128');
  assert.equal(no('.example', 'http://model.example'), undefined, 'a leading dot matches the domain');
  assert.equal(no('*.example', 'https://api.example'), undefined);
  assert.equal(no('model.example:8000', 'http://model.example:8000'), undefined);
  assert.equal(no('model.example:9000', 'http://model.example:8000'), 'http://proxy:3128', 'a port must match');
  assert.equal(no('a.example, model.example', 'http://model.example'), undefined, 'lists with spaces');
  assert.equal(no('*', 'https://api.example'), undefined);
  assert.equal(proxyFor('http://model.example', { ...env, no_proxy: 'model.example', NO_PROXY: '' }), undefined);
});

const cli = (args: string[], env: Record<string, string>) => runCli(args, { ...NO_PROXY_VARS, ...env });

test('doctor reaches a model server and an SGLang teacher only reachable through HTTP_PROXY; NO_PROXY bypasses it', async () => {
  const up = await new ScriptedUpstream().start();
  const teacher = await new ScriptedTeacher().start();
  const proxy = await new TestProxy({
    'model.invalid': `127.0.0.1:${port(up.url)}`,
    'teacher.invalid': `127.0.0.1:${port(teacher.url)}`,
  }).start();
  try {
    const dir = tempDir('ocrl-proxy-');
    const cfg = join(dir, 'config.yaml');
    writeFileSync(
      cfg,
      [
        'rollout:',
        '  provider: openai_compatible',
        `  base_url: http://model.invalid:${port(up.url)}/v1`,
        '  model_id: m',
        'teacher:',
        '  provider: openai_compatible',
        `  base_url: http://teacher.invalid:${port(teacher.url)}`,
        '  logprob_api: sglang',
        '',
      ].join('\n'),
    );
    const via = await cli(['doctor', '--config', cfg, '--timeout', '5'], { HTTP_PROXY: proxy.url });
    assert.equal(via.code, 0, via.stdout + via.stderr);
    assert.match(via.stdout, /rollout .*PASS ok/);
    assert.match(via.stdout, /teacher .*PASS ok: http:\/\/teacher\.invalid:\d+\/generate \(sglang\) scored 2 response tokens/);
    assert.ok(proxy.forwarded.includes(`POST http://model.invalid:${port(up.url)}/v1/chat/completions`), proxy.forwarded.join('\n'));
    assert.ok(proxy.forwarded.includes(`POST http://teacher.invalid:${port(teacher.url)}/generate`), proxy.forwarded.join('\n'));
    assert.equal(teacher.received.length, 1);

    const seen = proxy.forwarded.length;
    const direct = await cli(['doctor', '--config', cfg, '--timeout', '5'], { HTTP_PROXY: proxy.url, NO_PROXY: 'model.invalid,.invalid' });
    assert.equal(direct.code, 1);
    assert.match(direct.stdout, /rollout .*FAIL .*model\.invalid/);
    assert.match(
      direct.stdout,
      /teacher .*FAIL .*(ENOTFOUND|EAI_AGAIN).*teacher\.invalid|teacher .*FAIL .*teacher\.invalid.*(ENOTFOUND|EAI_AGAIN)/,
    );
    assert.equal(proxy.forwarded.length, seen, 'nothing went through the proxy');
  } finally {
    await proxy.stop();
    await teacher.stop();
    await up.stop();
  }
});

/** Sets proxy variables for the clients created inside `fn` (they read the environment when made). */
async function withEnv(vars: Record<string, string>, fn: () => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(Object.keys({ ...NO_PROXY_VARS, ...vars }).map((k) => [k, process.env[k]]));
  Object.assign(process.env, NO_PROXY_VARS, vars);
  try {
    await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

test('the Tinker client, the teacher client and the simulated users go through the proxy too', async () => {
  const fake = await startFakeTinker();
  const up = await new ScriptedUpstream().start();
  const teacher = await new ScriptedTeacher().start();
  const proxy = await new TestProxy({
    'tinker.invalid': `127.0.0.1:${port(fake.url)}`,
    'rl.invalid': `127.0.0.1:${port(up.url)}`,
    'teacher.invalid': `127.0.0.1:${port(teacher.url)}`,
  }).start();
  try {
    await withEnv({ HTTP_PROXY: proxy.url }, async () => {
      const tinker = new TinkerClient({
        baseUrl: `http://tinker.invalid:${port(fake.url)}`,
        stateDir: tempDir('ocrl-proxy-tinker-'),
        pollIntervalMs: 5,
      });
      try {
        assert.ok((await tinker.capabilities()).length > 0);
      } finally {
        await tinker.close();
      }
      const t = createHttpTeacher({ baseUrl: `http://teacher.invalid:${port(teacher.url)}`, dialect: 'sglang', temperature: 1 });
      try {
        assert.equal((await t.score([1, 2], [3])).logprobs.length, 1);
      } finally {
        await t.close();
      }
      const text = await requestAnswer({ baseUrl: `http://rl.invalid:${port(up.url)}/v1`, model: 'm' }, [{ role: 'user', content: 'hi' }], {
        turnType: 'main',
      });
      assert.equal(typeof text, 'string');
    });
    assert.ok(
      proxy.forwarded.some((r) => r.includes('http://tinker.invalid:')),
      proxy.forwarded.join('\n'),
    );
    assert.ok(proxy.forwarded.some((r) => r === `POST http://teacher.invalid:${port(teacher.url)}/generate`));
    assert.ok(proxy.forwarded.some((r) => r === `POST http://rl.invalid:${port(up.url)}/v1/chat/completions`));
  } finally {
    await proxy.stop();
    await teacher.stop();
    await up.stop();
    await fake.close();
  }
});

test('https upstreams are tunnelled with CONNECT; loopback upstreams ignore the proxy', async () => {
  const up = await new ScriptedUpstream().start();
  // The tunnel leads to a plain-HTTP server, so TLS then fails: what counts is that CONNECT was asked.
  const proxy = await new TestProxy({ 'secure.invalid:443': `127.0.0.1:${port(up.url)}` }).start();
  try {
    await withEnv({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url }, async () => {
      const secure = new OpenAICompatibleChannel({
        channel: 'rollout',
        baseUrl: 'https://secure.invalid/v1',
        model: 'm',
        timeoutMs: 5000,
        firstTokenTimeoutMs: 5000,
        maxRetries: 0,
      });
      try {
        await assert.rejects(secure.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
      } finally {
        await secure.close();
      }
      assert.deepEqual(proxy.tunnels, ['secure.invalid:443']);

      const local = new OpenAICompatibleChannel({
        channel: 'rollout',
        baseUrl: up.url,
        model: 'm',
        timeoutMs: 5000,
        firstTokenTimeoutMs: 5000,
        maxRetries: 0,
      });
      try {
        const json = await local.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
        assert.ok(Array.isArray(json.choices));
      } finally {
        await local.close();
      }
    });
    assert.deepEqual(proxy.forwarded, [], 'the loopback request went direct');
  } finally {
    await proxy.stop();
    await up.stop();
  }
});
