// The one key of maps and hashes keyed by turn: session id and turn id joined by NUL, which a
// session id never contains (sessions/session-id.ts refuses control characters), so two different
// turns never share a key. The held-out hash (rl/holdout.ts `holdoutPoint`) reads it too: changing it would
// move turns in or out of the held-out set.

/** Key of the turn `turnId` of session `sessionId`. */
export function turnKey(sessionId: string, turnId: number): string {
  return `${sessionId}\u0000${turnId}`;
}
