// A message's identity for session inference: what a client replays verbatim (role, text,
// tool-call names and arguments) and nothing it rewrites (tool-call ids, extra fields).
// Prefix hashes chain per-message hashes, so hashing a request costs one pass over it.
import { hash } from 'node:crypto';
import type { ChatMessage } from '../engines/types.ts';

/** Plain text of a message's content, whether a string or a list of parts. */
export function contentText(content: ChatMessage['content']): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((p) => (typeof p.text === 'string' ? p.text : typeof p.type === 'string' && p.type !== 'text' ? `[${p.type}]` : ''))
    .join('');
}

function toolCallKey(tc: Record<string, unknown>): string {
  const fn = (tc.function ?? {}) as { name?: unknown; arguments?: unknown };
  const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? '');
  return `${String(fn.name ?? '')}(${args})`;
}

/** Content as replayed: text parts joined (string vs parts does not matter), other parts as JSON. */
function canonicalContent(content: ChatMessage['content']): string {
  if (content === undefined || content === null || typeof content === 'string') return content ?? '';
  return content.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : JSON.stringify(p))).join('');
}

/** Length-prefixed fields, so no content can imitate a field boundary. */
function field(s: string): string {
  return `${s.length}:${s}`;
}

/** Canonical text of a message: role, content, tool calls by name+arguments (ids ignored). */
export function canonicalMessage(m: ChatMessage): string {
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls.map((tc) => field(toolCallKey(tc))).join('') : '';
  return field(m.role) + field(canonicalContent(m.content)) + field(calls);
}

const ROOT = '0'.repeat(40);

/** Hash of the prefix extended by one message: sha1(prev ‖ canonical message). */
export function extendHash(prev: string, m: ChatMessage): string {
  // One-shot hash(): a third of createHash's cost, and it runs for every message of every request.
  return hash('sha1', prev + canonicalMessage(m));
}

/** Prefix hashes P_1..P_n of a message list (P_k covers messages[0..k)), index k-1. */
export function prefixHashes(messages: ChatMessage[]): string[] {
  const out: string[] = new Array(messages.length);
  let h = ROOT;
  for (let i = 0; i < messages.length; i++) {
    h = extendHash(h, messages[i]);
    out[i] = h;
  }
  return out;
}

/** The hash of the empty prefix (a session with no history). */
export const EMPTY_PREFIX_HASH = ROOT;
