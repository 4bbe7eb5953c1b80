// Assertions shared by the gateway's error-path tests: the exact OpenAI error shape, "this turn
// left no trace" (session view and records file), and "the server still answers".
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords } from '../../src/sessions/index.ts';
import { postJson, type Harness } from '../support/harness.ts';

/** What an error body must say; each regex must match the message. */
export interface ErrorExpectation {
  type: string;
  code?: string | null;
  param?: string | null;
  mentions?: RegExp[];
}

/** Asserts `body` is exactly `{"error":{"message","type","param","code"}}` with the expected values. */
export function assertOpenAIError(body: unknown, want: ErrorExpectation): void {
  assert.equal(typeof body, 'object', `error body is JSON, got ${String(body)}`);
  const b = body as { error: Record<string, unknown> };
  assert.deepEqual(Object.keys(b), ['error']);
  assert.deepEqual(Object.keys(b.error).sort(), ['code', 'message', 'param', 'type']);
  assert.equal(typeof b.error.message, 'string');
  assert.equal(b.error.type, want.type);
  if (want.code !== undefined) assert.equal(b.error.code, want.code);
  if (want.param !== undefined) assert.equal(b.error.param, want.param);
  for (const re of want.mentions ?? []) assert.match(b.error.message as string, re);
}

/** POSTs a chat request. */
export function chat(h: Harness, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return postJson(`${h.url}/v1/chat/completions`, body, headers);
}

/** POSTs a streamed chat request; returns status, content type and the SSE data payloads (or the JSON error body). */
export async function chatStream(
  h: Harness,
  body: Record<string, unknown>,
): Promise<{ status: number; contentType: string; events: string[]; json?: unknown }> {
  const res = await fetch(`${h.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  const contentType = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (!contentType.startsWith('text/event-stream')) return { status: res.status, contentType, events: [], json: JSON.parse(text) };
  const events = text
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => b.slice(6));
  return { status: res.status, contentType, events };
}

/** Sends a chat request streamed or not; returns the status and the JSON body (the error, for failures before streaming). */
export async function chatAnswer(h: Harness, body: Record<string, unknown>, stream: boolean): Promise<{ status: number; json: unknown }> {
  if (stream) {
    const res = await chatStream(h, body);
    return { status: res.status, json: res.json };
  }
  const res = await chat(h, body);
  return { status: res.status, json: res.body };
}

/** The session left no trace: unknown to GET /sessions/:id and absent from the records file. */
export async function assertNotRecorded(h: Harness, sessionId: string): Promise<void> {
  const view = await fetch(`${h.url}/sessions/${encodeURIComponent(sessionId)}`);
  assert.equal(view.status, 404, `session ${sessionId} should have no recorded turn`);
  await view.body?.cancel();
  const path = join(h.outDir, 'records', 'turns.jsonl');
  if (!existsSync(path)) return;
  const { turns } = readRecords(path);
  assert.equal(turns.filter((t) => t.session_id === sessionId).length, 0, `records file has no turn of ${sessionId}`);
}

/** Turns of a session in the records file. */
export function recordedTurns(h: Harness, sessionId: string) {
  const path = join(h.outDir, 'records', 'turns.jsonl');
  return existsSync(path) ? readRecords(path).turns.filter((t) => t.session_id === sessionId) : [];
}

/** The server still serves a normal turn after a failure. */
export async function assertStillServes(h: Harness): Promise<void> {
  h.upstream.script({ kind: 'text', text: 'still here' });
  const res = await chat(h, { messages: [{ role: 'user', content: 'are you alive?' }], turn_type: 'side' });
  assert.equal(res.status, 200);
  assert.equal(res.body.choices[0].message.content, 'still here');
}

/** Waits until `cond()` holds (polling); fails after `ms` naming `what` (default: the test's own timeout bounds the wait). */
export async function until(cond: () => boolean, ms = Infinity, what = 'a condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
