// Per-protocol request counts and what of the requests the policy could not use (left out of its
// prompt: server tools, redacted thinking, foreign tool items, …), shown at /healthz.

export class ProtocolCounters {
  private readonly requests = new Map<string, number>();
  private readonly ignored = new Map<string, Map<string, number>>();

  count(protocol: string, ignored: string[]): void {
    this.requests.set(protocol, (this.requests.get(protocol) ?? 0) + 1);
    if (ignored.length === 0) return;
    let byPart = this.ignored.get(protocol);
    if (byPart === undefined) this.ignored.set(protocol, (byPart = new Map()));
    for (const part of ignored) byPart.set(part, (byPart.get(part) ?? 0) + 1);
  }

  snapshot(): Record<string, { requests: number; left_out: Record<string, number> }> {
    const out: Record<string, { requests: number; left_out: Record<string, number> }> = {};
    for (const [protocol, n] of this.requests)
      out[protocol] = { requests: n, left_out: Object.fromEntries(this.ignored.get(protocol) ?? []) };
    return out;
  }
}
