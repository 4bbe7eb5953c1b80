// Agents' helper calls that must not train: titles, topic checks, quota probes, conversation
// summaries when an agent compacts its history, heartbeats. Each rule is one row, named in config
// (`server.side_calls.<rule>: false` turns it off); each was derived from what the real clients
// send (test/fixtures/agents/README.md). An explicit `X-Turn-Type` always wins over them.
import type { ChatMessage } from '../engines/types.ts';
import { contentText } from '../sessions/index.ts';
import { headerValue } from './headers.ts';
import type { SIDE_CALL_RULE_NAMES } from '../config/index.ts';

/** What a rule sees: the request's headers and its canonical (Chat Completions) body. */
export interface SideCallInput {
  headers: Record<string, unknown>;
  body: Record<string, unknown>;
  messages: ChatMessage[];
}

/**
 * A request as the rules read it; the system prompt (tens of KB for these agents) and the last user
 * message are put together once per request, on first use, whichever rules ask.
 */
export class RequestView implements SideCallInput {
  readonly headers: Record<string, unknown>;
  readonly body: Record<string, unknown>;
  readonly messages: ChatMessage[];
  private systemCache?: string;
  private lastUserCache?: string;

  constructor(input: SideCallInput) {
    this.headers = input.headers;
    this.body = input.body;
    this.messages = input.messages;
  }

  /** The system and developer messages' text. */
  get system(): string {
    this.systemCache ??= this.messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => contentText(m.content))
      .join('\n');
    return this.systemCache;
  }

  /** The last user message's text. */
  get lastUser(): string {
    if (this.lastUserCache === undefined) {
      let i = this.messages.length - 1;
      while (i >= 0 && this.messages[i].role !== 'user') i--;
      this.lastUserCache = i >= 0 ? contentText(this.messages[i].content) : '';
    }
    return this.lastUserCache;
  }
}

export interface SideCallRule {
  name: (typeof SIDE_CALL_RULE_NAMES)[number];
  /** What the rule catches, for the docs and `config` output. */
  description: string;
  test(input: RequestView): boolean;
  /** The call carries the session's whole history plus an instruction (compaction): see TurnRequest.carriesHistory. */
  carriesHistory?: boolean;
}

function codexTurnKind(headers: Record<string, unknown>): string | undefined {
  const raw = headerValue(headers, 'x-codex-turn-metadata');
  if (raw === undefined) return undefined;
  try {
    const v = JSON.parse(raw) as { request_kind?: unknown };
    return typeof v.request_kind === 'string' ? v.request_kind : undefined;
  } catch {
    return undefined;
  }
}

const OPENCLAW_TRIGGER =
  /Follow the heartbeat monitor scratch context|\[OpenClaw (?:heartbeat poll|cron wake)\]|Pre-compaction memory flush\./;

export const SIDE_CALL_RULES: readonly SideCallRule[] = [
  {
    name: 'one_token_probe',
    description: 'a call for at most one token (Claude Code checks its quota with max_tokens 1)',
    test: ({ body }) => body.max_tokens === 1,
  },
  {
    name: 'claude_code_title',
    description: "Claude Code's session-title call (its system prompt asks for a title for the session)",
    // 2.1.197 (-p): "Generate a concise, sentence-case title"; 2.1.332 (interactive): "You are naming a coding session".
    test: (r) => /Generate a concise, sentence-case title|You are naming a coding session/.test(r.system),
  },
  {
    name: 'claude_code_toolless',
    description:
      'a Claude Code call without tools: its agent loop always offers tools, its helpers (titles, summaries, suggestions, classifiers) do not',
    test: ({ headers, body }) =>
      headerValue(headers, 'x-claude-code-session-id') !== undefined && (!Array.isArray(body.tools) || body.tools.length === 0),
  },
  {
    name: 'conversation_summary',
    description: 'a request to summarise the conversation so far (Claude Code /compact and auto-compaction)',
    test: (r) => /create a detailed summary of the conversation so far/i.test(r.lastUser),
    carriesHistory: true,
  },
  {
    name: 'codex_request_kind',
    description: 'Codex calls whose x-codex-turn-metadata request_kind is not "turn" (compaction, …)',
    test: ({ headers }) => {
      const kind = codexTurnKind(headers);
      return kind !== undefined && kind !== 'turn';
    },
    // Codex 0.171's "compaction" request: the whole input list, then "You are performing a
    // CONTEXT CHECKPOINT COMPACTION…" (test/fixtures/agents/codex-0.171.0-compaction.jsonl).
    carriesHistory: true,
  },
  {
    name: 'openclaw_heartbeat',
    description: "OpenClaw's heartbeat, cron-wake and pre-compaction memory-flush triggers (their fixed prompts)",
    // openclaw 2026.9.6: dist/heartbeat-vWflpIwS.mjs:6-17 (HEARTBEAT_CONTEXT_PROMPT and the
    // "[OpenClaw heartbeat poll]" / "[OpenClaw cron wake]" transcript prompts) and
    // DEFAULT_MEMORY_FLUSH_PROMPT ("Pre-compaction memory flush. …").
    test: (r) => OPENCLAW_TRIGGER.test(r.lastUser),
  },
];

/** The rules switched on by `server.side_calls` (every rule is on unless set to false). */
export function sideCallRules(switches: Partial<Record<string, boolean>>): SideCallRule[] {
  return SIDE_CALL_RULES.filter((r) => switches[r.name] !== false);
}

/** The first rule that makes this request a side call. */
export function sideCallRule(rules: readonly SideCallRule[], input: SideCallInput): SideCallRule | undefined {
  const view = input instanceof RequestView ? input : new RequestView(input);
  for (const r of rules) if (r.test(view)) return r;
  return undefined;
}
