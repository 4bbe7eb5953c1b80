// The one key of maps and hashes keyed by turn: session id and turn id joined by NUL, which a
// session id never contains (sessions/session-id.ts refuses control characters), so two different
// turns never share a key. The held-out hash (rl/holdout.ts `holdoutPoint`) reads it too: changing it would
// move turns in or out of the held-out set.

/** Key of the turn `turnId` of session `sessionId`. */
export function turnKey(sessionId: string, turnId: number): string {
  return `${sessionId}\u0000${turnId}`;
}

/** The turn number of a key of session `sessionId`, or undefined when the key belongs to another session. */
export function turnOfKey(key: string, sessionId: string): number | undefined {
  const head = `${sessionId}\u0000`;
  return key.startsWith(head) ? Number(key.slice(head.length)) : undefined;
}
