import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SIDE_CALL_RULES, sideCallRule, sideCallRules } from './side-calls.ts';
import { SIDE_CALL_RULE_NAMES } from '../config/index.ts';
import type { ChatMessage } from '../engines/types.ts';

const rule = (headers: Record<string, unknown>, body: Record<string, unknown>) =>
  sideCallRule(SIDE_CALL_RULES, { headers, body, messages: (body.messages ?? []) as ChatMessage[] })?.name;
const CC = { 'x-claude-code-session-id': '2e983c26-9faa-443f-a54b-be598be6b1a4' };
const TOOLS = [{ type: 'function', function: { name: 'Bash' } }];

test('every rule has its name in the config schema, and every name a rule', () => {
  assert.deepEqual(SIDE_CALL_RULES.map((r) => r.name).sort(), [...SIDE_CALL_RULE_NAMES].sort());
});

test("Claude Code 2.1.197 as captured: the title call and the quota probe are side calls, the agent's turns are not", () => {
  const system = {
    role: 'system',
    content:
      "x-anthropic-billing-header: cc_version=2.1.197.f57; cc_entrypoint=sdk-cli;\n\nYou are a Claude agent, built on Anthropic's Claude Agent SDK.\n\nGenerate a concise, sentence-case title (3-7 words) that captures …",
  };
  assert.equal(
    rule(CC, { messages: [system, { role: 'user', content: '<session>\nlist files\n</session>' }], max_tokens: 1024 }),
    'claude_code_title',
  );
  assert.equal(rule(CC, { messages: [{ role: 'user', content: 'quota' }], max_tokens: 1 }), 'one_token_probe');
  // 2.1.332 interactive (test/fixtures/agents/claude-code-2.1.332-interactive.jsonl, request 1).
  const naming = {
    role: 'system',
    content: 'x-anthropic-billing-header: …\n\nYou are Claude Code, …\n\nYou are naming a coding session …',
  };
  assert.equal(rule(CC, { messages: [naming, { role: 'user', content: 'list files' }], tools: TOOLS }), 'claude_code_title');
  const main = {
    messages: [
      { role: 'system', content: 'You are an interactive agent …' },
      { role: 'user', content: 'list files' },
    ],
    tools: TOOLS,
    max_tokens: 32000,
  };
  assert.equal(rule(CC, main), undefined);
  assert.equal(rule(CC, { ...main, tools: undefined }), 'claude_code_toolless');
  assert.equal(rule({}, { ...main, tools: undefined }), undefined, 'a client that is not Claude Code may call without tools');
  const compact = {
    messages: [{ role: 'user', content: 'Your task is to create a detailed summary of the conversation so far, …' }],
    tools: TOOLS,
  };
  assert.equal(rule(CC, compact), 'conversation_summary');
});

test("Codex: request_kind other than 'turn' is a side call; a malformed header is not", () => {
  const body = { messages: [{ role: 'user', content: 'x' }], tools: TOOLS };
  const meta = (kind: string) => ({ 'x-codex-turn-metadata': JSON.stringify({ turn_id: 't', request_kind: kind }) });
  assert.equal(rule(meta('turn'), body), undefined);
  assert.equal(rule(meta('compact'), body), 'codex_request_kind');
  assert.equal(rule({ 'x-codex-turn-metadata': '{not json' }, body), undefined);
});

test("OpenClaw 2026.9.6's heartbeat, cron wake and memory flush prompts are side calls", () => {
  for (const text of [
    'Follow the heartbeat monitor scratch context when provided. Recurring tasks are automations; …',
    '[Wed 2026-11-04 10:20 UTC] [OpenClaw heartbeat poll]',
    '[OpenClaw cron wake]',
    'Pre-compaction memory flush. Store durable memories …',
  ])
    assert.equal(rule({}, { messages: [{ role: 'user', content: text }] }), 'openclaw_heartbeat', text);
  assert.equal(rule({}, { messages: [{ role: 'user', content: 'What is in my heartbeat file?' }] }), undefined);
});

test('server.side_calls switches rules off one by one', () => {
  const rules = sideCallRules({ one_token_probe: false });
  assert.equal(rules.length, SIDE_CALL_RULES.length - 1);
  assert.equal(sideCallRule(rules, { headers: {}, body: { max_tokens: 1 }, messages: [] }), undefined);
});
