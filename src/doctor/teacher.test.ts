// doctor's teacher row: one real scoring request per dialect. A server without the endpoint, or
// one that ignores the log-prob fields, fails the row with the reason; a working one passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../config/index.ts';
import { ScriptedTeacher } from '../../test/support/scripted-teacher.ts';
import { ScriptedUpstream } from '../../test/support/scripted-upstream.ts';
import { checkTeacherScoring, formatDoctorTable, runDoctor } from './index.ts';

const teacherOf = (base_url: string, logprob_api: 'sglang' | 'vllm', model_id?: string) =>
  parseConfig({ teacher: { provider: 'openai_compatible', base_url, logprob_api, model_id } }, { env: {} }).teacher;

/** A vLLM-like /v1/completions: prompt_logprobs for every prompt token (entry 0 null), or none when `ignore`. */
async function fakeVllm(opts: { ignore?: boolean } = {}) {
  const bodies: any[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.url !== '/v1/completions') return void res.writeHead(404).end('{"detail":"Not Found"}');
      const body = JSON.parse(raw);
      bodies.push(body);
      const prompt = body.prompt as number[];
      const prompt_logprobs = prompt.map((id, i) =>
        i === 0 ? null : { [String(id)]: { logprob: -0.5 - i / 8, rank: 1, decoded_token: 'x' } },
      );
      const choice = { index: 0, text: ' ', ...(opts.ignore ? {} : { prompt_logprobs }) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [choice] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, bodies, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test('sglang: a server that scores /generate passes, with the log-probs it returned', async () => {
  const t = await new ScriptedTeacher().start();
  try {
    const row = await checkTeacherScoring(teacherOf(t.url, 'sglang'), { temperature: 0.8, timeoutMs: 5000 });
    assert.equal(row.ok, true, row.fix);
    assert.match(row.result, /^ok: http:\/\/127\.0\.0\.1:\d+\/generate \(sglang\) scored 2 response tokens \(log-probs -?\d/);
    assert.equal(t.received.length, 1);
    assert.equal(t.received[0].logprob_start_len, 2, 'input log-probs asked from the last prompt token');
  } finally {
    await t.stop();
  }
});

test('sglang: a server that 404s /generate fails the teacher row with the reason (the chat endpoint works)', async () => {
  const up = await new ScriptedUpstream().start();
  try {
    const cfg = parseConfig(
      { teacher: { provider: 'openai_compatible', base_url: up.url, logprob_api: 'sglang', model_id: 't' } },
      { env: {} },
    );
    const rows = await runDoctor(cfg, 5000);
    const row = rows.find((r) => r.channel === 'teacher')!;
    assert.equal(row.ok, false, formatDoctorTable(rows));
    assert.match(row.result, /^404 teacher_unavailable: scoring request to http:\/\/127\.0\.0\.1:\d+\/generate failed$/);
    assert.match(
      row.fix,
      /teacher has no http:\/\/127\.0\.0\.1:\d+\/generate \(404\): check teacher\.base_url and teacher\.logprob_api \(sglang\)/,
    );
    assert.ok(
      up.received.some((r) => r.path === '/generate'),
      'the request went to /generate',
    );
  } finally {
    await up.stop();
  }
});

test('vllm: prompt_logprobs on /v1/completions pass; the model id is sent', async () => {
  const v = await fakeVllm();
  try {
    const row = await checkTeacherScoring(teacherOf(`${v.url}/v1`, 'vllm', 'Qwen/Qwen3-8B'), { temperature: 1, timeoutMs: 5000 });
    assert.equal(row.ok, true, row.fix);
    assert.match(row.result, /\/v1\/completions \(vllm\) scored 2 response tokens/);
    assert.equal(v.bodies[0].model, 'Qwen/Qwen3-8B');
    assert.equal(v.bodies[0].prompt_logprobs, 0);
  } finally {
    await v.close();
  }
});

test('vllm: a server that ignores prompt_logprobs fails with teacher_mismatch and says why', async () => {
  const v = await fakeVllm({ ignore: true });
  try {
    const row = await checkTeacherScoring(teacherOf(v.url, 'vllm'), { temperature: 1, timeoutMs: 5000 });
    assert.equal(row.ok, false);
    assert.match(row.result, /^500 teacher_mismatch: scoring request to .*\/v1\/completions failed/);
    assert.match(row.fix, /returned no prompt_logprobs/);
  } finally {
    await v.close();
  }
});

test('vllm: a refused connection fails with the connection reason', async () => {
  const row = await checkTeacherScoring(teacherOf('http://127.0.0.1:9', 'vllm'), { temperature: 1, timeoutMs: 5000 });
  assert.equal(row.ok, false);
  assert.match(row.result, /^502 teacher_unavailable/);
  assert.match(row.fix, /is unreachable .*check teacher\.base_url/);
});

test('an in-process teacher has nothing to reach', async () => {
  const row = await checkTeacherScoring(parseConfig({}, { env: {} }).teacher, { temperature: 1, timeoutMs: 1000 });
  assert.deepEqual([row.ok, row.result], [true, 'in-process (embedded): nothing to reach']);
});
