import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createHttpTeacher, type HttpTeacherOptions } from './http.ts';
import type { Teacher } from './teacher.ts';
import { OpenClawError } from '../../errors/index.ts';

// A scripted teacher over real HTTP on loopback. By default it answers like the real server of
// the requested dialect; a test can replace `answer` to misbehave.
type Answer = (path: string, body: Record<string, unknown>) => { status: number; json: unknown } | 'hang' | 'drop';
let server: Server;
let base: string;
let answer: Answer;
let requests: Array<{ path: string; body: Record<string, unknown>; auth: string | undefined }>;
let holdMs = 0;
let inFlight = 0;
let peak = 0;
const sockets = new Set<Socket>();

/** Fake teacher model: log-prob of token t at position j (exact binary fractions). */
const fakeLp = (t: number, j: number) => -((t % 10) + 1) / 8 - j / 1024;
// Top-2 alternatives at every position: ids 7 and 8, both likelier than any scored token.
const TOP = [
  { id: 7, lp: -0.0625 },
  { id: 8, lp: -0.1875 },
];

function sglangAnswer(body: Record<string, unknown>) {
  const ids = body.input_ids as number[];
  const start = body.logprob_start_len as number;
  const k = body.top_logprobs_num as number | undefined;
  const input_token_logprobs = ids.slice(start).map((id, i) => [i === 0 ? null : fakeLp(id, start + i), id, null]);
  const meta_info: Record<string, unknown> = { prompt_tokens: ids.length, completion_tokens: 0, input_token_logprobs };
  if (k !== undefined)
    meta_info.input_top_logprobs = ids.slice(start).map((_, i) => (i === 0 ? null : TOP.slice(0, k).map((t) => [t.lp, t.id, null])));
  return { text: '', meta_info };
}

function vllmAnswer(body: Record<string, unknown>) {
  const ids = body.prompt as number[];
  const k = body.prompt_logprobs as number;
  const prompt_logprobs = ids.map((id, j) => {
    if (j === 0) return null;
    const entry: Record<string, unknown> = { [String(id)]: { logprob: fakeLp(id, j), rank: 3, decoded_token: `t${id}` } };
    TOP.slice(0, k).forEach((t, r) => (entry[String(t.id)] = { logprob: t.lp, rank: r + 1, decoded_token: `t${t.id}` }));
    return entry;
  });
  return {
    id: 'cmpl-1',
    object: 'text_completion',
    choices: [{ index: 0, text: 'x', prompt_logprobs, prompt_token_ids: ids, finish_reason: 'length' }],
  };
}

const realAnswer: Answer = (path, body) => ({ status: 200, json: path.endsWith('/generate') ? sglangAnswer(body) : vllmAnswer(body) });

before(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    sockets.add(req.socket);
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      requests.push({ path: req.url ?? '', body, auth: req.headers.authorization });
      const out = answer(req.url ?? '', body);
      if (out === 'hang') return;
      if (out === 'drop') return req.socket.destroy();
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(out.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(out.json));
      }, holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${addr.port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  answer = realAnswer;
  requests = [];
  holdMs = 0;
  peak = 0;
  sockets.clear();
});

async function withClient(opts: Partial<HttpTeacherOptions>, run: (c: Teacher) => Promise<void>) {
  const client = createHttpTeacher({ baseUrl: base, dialect: 'sglang', temperature: 0.8, ...opts });
  try {
    await run(client);
  } finally {
    await client.close();
  }
}

function mismatch(pattern: RegExp) {
  return (err: unknown) =>
    err instanceof OpenClawError && err.kind === 'data' && err.code === 'teacher_mismatch' && pattern.test(err.message);
}

const prompt = [11, 12, 13];
const response = [21, 22];
// fakeLp(21, 3) = -2/8 - 3/1024 and fakeLp(22, 4) = -3/8 - 4/1024.
const expected = [-0.2529296875, -0.37890625];

test('sglang: /generate request body and response-position extraction', async () => {
  await withClient({ apiKey: 'sk-t' }, async (c) => {
    const out = await c.score(prompt, response);
    assert.deepEqual(out, { logprobs: expected });
  });
  assert.equal(requests.length, 1);
  assert.equal(requests[0].path, '/generate');
  assert.equal(requests[0].auth, 'Bearer sk-t');
  assert.deepEqual(requests[0].body, {
    input_ids: [11, 12, 13, 21, 22],
    sampling_params: { max_new_tokens: 0, temperature: 0.8 },
    return_logprob: true,
    logprob_start_len: 2,
    return_text_in_logprobs: false,
  });
});

test('sglang: top-K alternatives come from input_top_logprobs; a /v1 base URL is not doubled', async () => {
  await withClient({ baseUrl: `${base}/v1` }, async (c) => {
    const out = await c.score(prompt, response, { topK: 2 });
    assert.deepEqual(out.logprobs, expected);
    assert.deepEqual(out.topK, [
      { ids: [7, 8], logprobs: [-0.0625, -0.1875] },
      { ids: [7, 8], logprobs: [-0.0625, -0.1875] },
    ]);
  });
  assert.equal(requests[0].path, '/generate');
  assert.equal(requests[0].body.top_logprobs_num, 2);
});

test('sglang: a different echoed token, a null log-prob, or ignored options are teacher mismatches', async () => {
  await withClient({}, async (c) => {
    answer = (_p, body) => {
      const json = sglangAnswer(body);
      (json.meta_info.input_token_logprobs as unknown[][])[2][1] = 99;
      return { status: 200, json };
    };
    await assert.rejects(c.score(prompt, response), mismatch(/scored token 99 at response position 1, but the student produced 22/));

    answer = (_p, body) => {
      const json = sglangAnswer(body);
      (json.meta_info.input_token_logprobs as unknown[][])[1][0] = null;
      return { status: 200, json };
    };
    await assert.rejects(c.score(prompt, response), mismatch(/log-prob null for response position 0/));

    answer = () => ({ status: 200, json: { text: '', meta_info: { prompt_tokens: 5 } } });
    await assert.rejects(c.score(prompt, response), mismatch(/no meta_info\.input_token_logprobs/));

    // Server ignored logprob_start_len and scored from position 0.
    answer = (_p, body) => ({ status: 200, json: sglangAnswer({ ...body, logprob_start_len: 0 }) });
    await assert.rejects(c.score(prompt, response), mismatch(/returned 5 input log-prob entries, expected 3/));

    answer = (_p, body) => ({ status: 200, json: sglangAnswer({ ...body, top_logprobs_num: undefined }) });
    await assert.rejects(c.score(prompt, response, { topK: 2 }), mismatch(/did not return input_top_logprobs/));
  });
});

test('vllm: /v1/completions with token-id prompt and prompt_logprobs; top-K excludes the scored token', async () => {
  await withClient({ dialect: 'vllm', model: 'qwen3-8b' }, async (c) => {
    assert.deepEqual(await c.score(prompt, response), { logprobs: expected });
    const top = await c.score(prompt, response, { topK: 2 });
    assert.deepEqual(top.logprobs, expected);
    assert.deepEqual(top.topK, [
      { ids: [7, 8], logprobs: [-0.0625, -0.1875] },
      { ids: [7, 8], logprobs: [-0.0625, -0.1875] },
    ]);
  });
  assert.equal(requests[0].path, '/v1/completions');
  assert.deepEqual(requests[0].body, {
    model: 'qwen3-8b',
    prompt: [11, 12, 13, 21, 22],
    max_tokens: 1,
    temperature: 0.8,
    prompt_logprobs: 0,
    return_token_ids: true,
  });
  assert.equal(requests[1].body.prompt_logprobs, 2);
});

test('vllm: ignored prompt_logprobs, a missing token, a wrong echo or a short list are teacher mismatches', async () => {
  await withClient({ dialect: 'vllm', baseUrl: `${base}/v1` }, async (c) => {
    answer = () => ({ status: 200, json: { choices: [{ index: 0, text: 'x', finish_reason: 'length' }] } });
    await assert.rejects(c.score(prompt, response), mismatch(/no prompt_logprobs/));

    answer = (_p, body) => {
      const json = vllmAnswer(body);
      const entry = (json.choices[0].prompt_logprobs as Array<Record<string, unknown>>)[4];
      delete entry['22'];
      return { status: 200, json };
    };
    await assert.rejects(c.score(prompt, response), mismatch(/no log-prob for token 22 at response position 1/));

    answer = (_p, body) => ({ status: 200, json: vllmAnswer({ ...body, prompt: [11, 12, 13, 21, 23] }) });
    await assert.rejects(c.score(prompt, response), mismatch(/first difference at index 4/));

    answer = (_p, body) => ({ status: 200, json: vllmAnswer({ ...body, prompt: [12, 13, 21, 22] }) });
    await assert.rejects(c.score(prompt, response), mismatch(/returned 4 prompt_logprobs entries for 5 prompt tokens/));
  });
  assert.equal(requests[0].path, '/v1/completions');
});

test('at most maxConcurrency requests are in flight, over at most that many kept-alive connections', async () => {
  holdMs = 20;
  await withClient({ maxConcurrency: 2 }, async (c) => {
    const results = await Promise.all(Array.from({ length: 6 }, () => c.score(prompt, response)));
    for (const r of results) assert.deepEqual(r.logprobs, expected);
  });
  assert.equal(requests.length, 6);
  assert.equal(peak, 2);
  assert.ok(sockets.size <= 2, `used ${sockets.size} connections`);
});

test('HTTP failures map to upstream error kinds; a silent server hits the deadline', async () => {
  await withClient({ timeoutMs: 200 }, async (c) => {
    answer = () => ({ status: 401, json: { error: { message: 'bad key' } } });
    await assert.rejects(
      c.score(prompt, response),
      (e: unknown) => e instanceof OpenClawError && e.kind === 'authentication' && /teacher\.api_key.*bad key/.test(e.message),
    );
    answer = () => ({ status: 404, json: { detail: 'Not Found' } });
    await assert.rejects(
      c.score(prompt, response),
      (e: unknown) => e instanceof OpenClawError && e.kind === 'not_found' && /teacher\.logprob_api \(sglang\)/.test(e.message),
    );
    answer = () => ({ status: 500, json: { error: 'boom' } });
    await assert.rejects(
      c.score(prompt, response),
      (e: unknown) => e instanceof OpenClawError && e.kind === 'upstream' && e.status === 502 && /HTTP 500/.test(e.message),
    );
    answer = () => 'hang';
    await assert.rejects(
      c.score(prompt, response),
      (e: unknown) => e instanceof OpenClawError && e.kind === 'upstream_timeout' && /within 200 ms/.test(e.message),
    );
  });
});

test('a transient failure (503, a dropped connection) is retried within the deadline; a 500 or a 4xx is not', async () => {
  const failOnce = (first: ReturnType<Answer>): Answer => {
    let calls = 0;
    return (path, body) => (calls++ === 0 ? first : realAnswer(path, body));
  };
  await withClient({ timeoutMs: 10_000 }, async (c) => {
    answer = failOnce({ status: 503, json: { error: 'loading' } });
    assert.deepEqual((await c.score(prompt, response)).logprobs, expected);
    assert.equal(requests.length, 2, 'one 503, then the answer');
    requests = [];
    answer = failOnce('drop');
    assert.deepEqual((await c.score(prompt, response)).logprobs, expected);
    assert.equal(requests.length, 2, 'one dropped connection, then the answer');
    requests = [];
    answer = failOnce({ status: 500, json: { error: 'boom' } });
    await assert.rejects(c.score(prompt, response), (e: unknown) => e instanceof OpenClawError && /HTTP 500/.test(e.message));
    answer = failOnce({ status: 400, json: { error: 'bad' } });
    await assert.rejects(c.score(prompt, response), (e: unknown) => e instanceof OpenClawError && /HTTP 400/.test(e.message));
    assert.equal(requests.length, 2, 'neither a 500 nor a 400 is sent again');
  });
});

test('bad inputs and bad options are refused before any request', async () => {
  await withClient({}, async (c) => {
    await assert.rejects(
      c.score([], response),
      (e: unknown) => e instanceof OpenClawError && e.code === 'teacher_bad_input' && /prompt has no tokens/.test(e.message),
    );
    await assert.rejects(c.score(prompt, []), (e: unknown) => e instanceof OpenClawError && e.code === 'teacher_bad_input');
    await assert.rejects(c.score(prompt, [1.5]), (e: unknown) => e instanceof OpenClawError && /token id 1\.5/.test(e.message));
  });
  assert.equal(requests.length, 0);
  assert.throws(
    () => createHttpTeacher({ baseUrl: 'not a url', dialect: 'vllm', temperature: 1 }),
    (e: unknown) => e instanceof OpenClawError && e.kind === 'config' && e.param === 'teacher.base_url',
  );
  assert.throws(
    () => createHttpTeacher({ baseUrl: base, dialect: 'embedded' as 'vllm', temperature: 1 }),
    (e: unknown) => e instanceof OpenClawError && e.param === 'teacher.logprob_api',
  );
  assert.throws(
    () => createHttpTeacher({ baseUrl: base, dialect: 'vllm', temperature: 1, maxConcurrency: 0 }),
    (e: unknown) => e instanceof OpenClawError && e.kind === 'config',
  );
});

test('sglang and vllm report that their log-probs are at temperature 1', async () => {
  await withClient({ dialect: 'vllm' }, async (c) => assert.equal(c.logprobTemperature, 1));
  await withClient({ dialect: 'sglang' }, async (c) => assert.equal(c.logprobTemperature, 1));
});

test('close aborts scoring still running instead of waiting for teacher.timeout_s', async () => {
  answer = () => 'hang';
  const client = createHttpTeacher({ baseUrl: base, dialect: 'sglang', temperature: 0.8, timeoutMs: 60_000 });
  const scoring = client.score([1, 2, 3], [4, 5]);
  scoring.catch(() => undefined);
  while (requests.length === 0) await new Promise((r) => setTimeout(r, 5));
  const start = performance.now();
  await client.close();
  await assert.rejects(scoring);
  assert.ok(performance.now() - start < 2000, `close returned after ${(performance.now() - start).toFixed(0)} ms`);
});
