// The pipeline's one notion of "in flight": a turn handed to judging (waiting for a judge slot or
// being judged) whose judging has not finished yet. Counted per session, because at-least-one can
// only finish a closed session once none of its turns is in flight, and in all, for `whenIdle` and
// the shutdown warning.

/** Turns in flight, per session and in all. */
export class InFlight {
  private readonly bySession = new Map<string, number>();
  private count = 0;

  begin(sessionId: string): void {
    this.bySession.set(sessionId, (this.bySession.get(sessionId) ?? 0) + 1);
    this.count++;
  }

  end(sessionId: string): void {
    const n = (this.bySession.get(sessionId) ?? 0) - 1;
    if (n > 0) this.bySession.set(sessionId, n);
    else this.bySession.delete(sessionId);
    this.count--;
  }

  of(sessionId: string): number {
    return this.bySession.get(sessionId) ?? 0;
  }

  get size(): number {
    return this.count;
  }
}
