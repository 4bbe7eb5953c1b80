import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Rng, deriveSeed } from '../rl/index.ts';
import { OpenClawError } from '../errors/index.ts';
import type { ChatMessage } from '../engines/types.ts';
import { chatCompletionsUrl } from './client.ts';
import { runEpisode } from './episode.ts';
import { evaluatePersona } from './evaluate.ts';
import { PERSONAS } from './personas.ts';
import { HELD_OUT_TASKS, TRAIN_TASKS } from './tasks.ts';
import { REPEAT_OPENERS, THANKS_REPLIES } from './phrases.ts';
import { classifyNextState } from '../scoring/index.ts';

const MARKDOWN = 'Here is how.\n1. **Boil water.** Use a big pot.\n2. **Add pasta.** Stir it.';
const PLAIN = 'Boil salted water, cook the pasta for about ten minutes, then drain it.';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model: string; messages: ChatMessage[]; max_tokens?: number; stream?: boolean; seed?: number };
}

/** A scripted OpenAI-style server: records requests, answers with `answer(body, index)` or a set status. */
class ScriptedServer {
  received: Received[] = [];
  answer: (body: Received['body'], index: number) => string = () => PLAIN;
  failWith: { status: number; message: string } | null = null;
  url = '';
  private server?: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw) as Received['body'];
        const index = this.received.push({ path: req.url ?? '', headers: req.headers, body }) - 1;
        res.setHeader('content-type', 'application/json');
        if (this.failWith !== null) {
          res.statusCode = this.failWith.status;
          res.end(JSON.stringify({ error: { message: this.failWith.message, type: 'authentication_error', param: null, code: null } }));
          return;
        }
        const content = this.answer(body, index);
        res.end(
          JSON.stringify({
            id: `c${index}`,
            object: 'chat.completion',
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(answer: ScriptedServer['answer']): void {
    this.received = [];
    this.answer = answer;
    this.failWith = null;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

const srv = new ScriptedServer();
before(() => srv.start());
after(() => srv.stop());

const task = TRAIN_TASKS[0];
const lastText = (r: Received) => String(r.body.messages[r.body.messages.length - 1].content);

test('an unsatisfied first answer, a satisfying redo, then a closing request that carries the thanks', async () => {
  srv.reset((_b, i) => [MARKDOWN, PLAIN, 'You are welcome.'][i]);
  const result = await runEpisode({
    baseUrl: `${srv.url}/v1`,
    apiKey: 'k-1',
    model: 'policy',
    persona: PERSONAS['no-markdown'],
    task,
    sessionId: 'ep-1',
    rng: new Rng(1),
  });
  const r = srv.received;
  assert.equal(r.length, 3);
  assert.deepEqual(
    r.map((x) => x.path),
    Array(3).fill('/v1/chat/completions'),
  );
  assert.deepEqual(
    r.map((x) => x.headers['x-session-id']),
    ['ep-1', 'ep-1', 'ep-1'],
  );
  assert.deepEqual(
    r.map((x) => x.headers['x-turn-type']),
    ['main', 'main', 'main'],
  );
  assert.deepEqual(
    r.map((x) => x.headers['x-session-done']),
    [undefined, undefined, 'true'],
    'only the closing request ends the session',
  );
  assert.deepEqual(
    r.map((x) => x.headers.authorization),
    Array(3).fill('Bearer k-1'),
  );
  assert.deepEqual(
    r.map((x) => x.body.messages.length),
    [1, 3, 5],
    'each request extends the previous one',
  );
  assert.deepEqual(
    r.map((x) => [x.body.model, x.body.stream, x.body.max_tokens]),
    [
      ['policy', false, undefined],
      ['policy', false, undefined],
      ['policy', false, 8],
    ],
  );
  assert.deepEqual(r[1].body.messages.slice(0, 2), [
    { role: 'user', content: task.prompt },
    { role: 'assistant', content: MARKDOWN },
  ]);
  assert.deepEqual(r[2].body.messages.slice(0, 4), r[1].body.messages.concat([{ role: 'assistant', content: PLAIN }]));
  assert.ok(THANKS_REPLIES.includes(lastText(r[2])), `the closing request carries the thanks: ${lastText(r[2])}`);
  assert.equal(lastText(r[1]), result.turns[0].reply.text);

  assert.equal(result.firstRating, 0);
  assert.deepEqual(result.ratings, [0, 1]);
  assert.equal(result.satisfied, true);
  assert.equal(result.requests, 3);
  assert.equal(result.taskId, task.id);
  assert.deepEqual(result.transcript, r[2].body.messages);
  assert.equal(result.closingAnswer, 'You are welcome.');
});

test('a persona that is never satisfied gives up after maxTurns; its last complaint still goes out with session_done', async () => {
  srv.reset(() => MARKDOWN);
  const result = await runEpisode({
    baseUrl: srv.url,
    model: 'policy',
    persona: PERSONAS['no-markdown'],
    task: 'How do I cook rice?',
    sessionId: 'ep-2',
    rng: new Rng(2),
    maxTurns: 2,
    closeMaxTokens: 1,
  });
  const r = srv.received;
  assert.equal(r.length, 3);
  assert.equal(r[0].path, '/v1/chat/completions', 'a base URL without /v1 gets it added');
  assert.equal(r[0].headers.authorization, undefined);
  assert.deepEqual(
    r.map((x) => x.headers['x-session-done']),
    [undefined, undefined, 'true'],
  );
  assert.equal(r[2].body.max_tokens, 1);
  assert.equal(lastText(r[2]), result.turns[1].reply.text);
  assert.ok(
    REPEAT_OPENERS.some((o) => lastText(r[2]).startsWith(o)),
    `a repeat complaint: ${lastText(r[2])}`,
  );
  assert.equal(classifyNextState({ role: 'user', content: lastText(r[2]) }).score, -1);
  assert.deepEqual([result.firstRating, result.ratings, result.satisfied, result.taskId], [0, [0, 0], false, null]);
});

test('satisfied at once: one answer and the closing request, with the system prompt first', async () => {
  srv.reset(() => PLAIN);
  const result = await runEpisode({
    baseUrl: srv.url,
    model: 'policy',
    persona: PERSONAS.terse,
    task,
    sessionId: 'ep-3',
    rng: new Rng(3),
    systemPrompt: 'You are a helpful assistant.',
  });
  assert.deepEqual(
    srv.received.map((x) => x.body.messages.length),
    [2, 4],
  );
  assert.deepEqual(srv.received[0].body.messages[0], { role: 'system', content: 'You are a helpful assistant.' });
  assert.deepEqual(
    srv.received.map((x) => x.headers['x-session-done']),
    [undefined, 'true'],
  );
  assert.deepEqual([result.firstRating, result.ratings, result.satisfied], [1, [1], true]);
});

test('the same seed and the same answers give the same conversation', async () => {
  const once = async (seed: number) => {
    srv.reset(() => MARKDOWN);
    return (
      await runEpisode({
        baseUrl: srv.url,
        model: 'm',
        persona: PERSONAS['no-markdown'],
        task,
        sessionId: `ep-seed-${seed}`,
        rng: new Rng(seed),
      })
    ).transcript;
  };
  const a = await once(11);
  assert.equal(a.length, 7, 'three answers and three replies after the task');
  assert.deepEqual(await once(11), a);
});

test('server errors surface as OpenClawError with the server’s message', async () => {
  srv.reset(() => PLAIN);
  srv.failWith = { status: 401, message: 'Missing or wrong API key' };
  await assert.rejects(
    runEpisode({ baseUrl: srv.url, model: 'm', persona: PERSONAS.terse, task, sessionId: 'ep-err', rng: new Rng(1) }),
    (e: unknown) =>
      e instanceof OpenClawError &&
      e.kind === 'authentication' &&
      e.status === 401 &&
      /answered 401: Missing or wrong API key/.test(e.message),
  );
  await assert.rejects(
    runEpisode({ baseUrl: 'http://127.0.0.1:1', model: 'm', persona: PERSONAS.terse, task, sessionId: 'ep-err', rng: new Rng(1) }),
    (e: unknown) => e instanceof OpenClawError && e.kind === 'upstream_connection' && /is the RL server running/.test(e.message),
  );
});

test('evaluation rates first answers to held-out tasks as side turns, in task order', async () => {
  // The first held-out phrasing gets a markdown answer, the second plain prose.
  srv.reset((b) => (String(b.messages[0].content).startsWith('Could you walk me through') ? MARKDOWN : PLAIN));
  const result = await evaluatePersona({
    baseUrl: srv.url,
    model: 'policy',
    persona: PERSONAS['no-markdown'],
    samples: 30,
    concurrency: 3,
  });
  const r = srv.received;
  assert.equal(r.length, 30);
  assert.ok(
    r.every(
      (x) => x.headers['x-turn-type'] === 'side' && x.headers['x-session-id'] === undefined && x.headers['x-session-done'] === undefined,
    ),
  );
  assert.ok(r.every((x) => x.body.messages.length === 1));
  assert.deepEqual([result.mean, result.n, result.persona], [0.5, 30, 'no-markdown']);
  assert.deepEqual(
    result.items.map((i) => i.taskId),
    Array.from({ length: 30 }, (_, i) => HELD_OUT_TASKS[i % 20].id),
  );
  assert.deepEqual(
    result.items.slice(0, 4).map((i) => i.rating),
    [0, 1, 0, 1],
  );
  const asked = new Set(r.map((x) => String(x.body.messages[0].content)));
  assert.equal(asked.size, 20, 'every held-out task was asked');
});

test('base URLs with and without /v1 reach the same endpoint', () => {
  assert.equal(chatCompletionsUrl('http://h:1/v1'), 'http://h:1/v1/chat/completions');
  assert.equal(chatCompletionsUrl('http://h:1/v1/'), 'http://h:1/v1/chat/completions');
  assert.equal(chatCompletionsUrl('http://h:1'), 'http://h:1/v1/chat/completions');
});

test('with a seed, every request carries its own derived sampling seed; the same seed sends the same ones', async () => {
  srv.reset((_b, i) => [MARKDOWN, MARKDOWN, 'ok'][i]);
  const episode = () =>
    runEpisode({
      baseUrl: srv.url,
      model: 'm',
      persona: PERSONAS['no-markdown'],
      task,
      sessionId: 's',
      rng: new Rng(1),
      seed: 7,
      maxTurns: 2,
    });
  await episode();
  const sent = srv.received.map((r) => r.body.seed);
  assert.deepEqual(sent, [deriveSeed(7, 1), deriveSeed(7, 2), deriveSeed(7, 0)]);
  assert.equal(new Set(sent).size, 3);
  srv.reset((_b, i) => [MARKDOWN, MARKDOWN, 'ok'][i]);
  await episode();
  assert.deepEqual(
    srv.received.map((r) => r.body.seed),
    sent,
  );
  // Ratings: sample i sends deriveSeed(seed, i), the same at every rating of a run; no seed, none sent.
  srv.reset(() => PLAIN);
  await evaluatePersona({ baseUrl: srv.url, model: 'm', persona: PERSONAS['no-markdown'], samples: 3, concurrency: 1, seed: 9 });
  assert.deepEqual(
    srv.received.map((r) => r.body.seed),
    [0, 1, 2].map((i) => deriveSeed(9, i)),
  );
  srv.reset(() => PLAIN);
  await evaluatePersona({ baseUrl: srv.url, model: 'm', persona: PERSONAS['no-markdown'], samples: 2 });
  assert.ok(srv.received.every((r) => !('seed' in r.body)));
});
