// Futures of the Tinker API: every training and sampling call answers at once with a request_id
// while its work runs in the background; POST retrieve_future waits a little for the result.
// Hosted-style ids are `<instance>-<n>`: an id of an earlier run of the server (or one evicted
// after many newer results) is "lost" (HTTP 410, the client submits again: seq_id makes that
// safe), any other unknown id is 404. SkyRL-style ids are the integers of its futures table
// ("1", "2", …; api.py L1392): SkyRL keeps every row, so it never answers 410 — an id it does not
// have is a 404 "Future not found". Only finished futures are evicted, oldest first, past `maxKept`.

import { randomBytes } from 'node:crypto';
import { OpenClawError } from '../../errors/index.ts';

/** How a future stands when asked. */
export type FutureState = { status: 'done'; value: unknown } | { status: 'failed'; error: unknown } | { status: 'pending' };

interface Entry {
  state: FutureState;
  settled: Promise<void>;
}

/** The futures of one server run. */
export class FutureStore {
  private readonly instance = randomBytes(4).toString('hex');
  private next = 1;
  private readonly entries = new Map<string, Entry>();
  private finished = 0;

  constructor(
    private readonly maxKept = 4096,
    private readonly style: 'instance' | 'integer' = 'instance',
  ) {}

  /** Tracks `work` (already running); returns its request id. */
  track(work: Promise<unknown>): string {
    const n = this.next++;
    const id = this.style === 'integer' ? String(n) : `${this.instance}-${n}`;
    const entry: Entry = { state: { status: 'pending' }, settled: Promise.resolve() };
    entry.settled = work
      .then(
        (value) => {
          entry.state = { status: 'done', value };
        },
        (error: unknown) => {
          entry.state = { status: 'failed', error };
        },
      )
      .finally(() => this.onSettled());
    this.entries.set(id, entry);
    return id;
  }

  /** The state of a future, waiting up to `waitMs` for it to finish. Unknown ids throw (404 / 410). */
  async wait(id: string, waitMs: number): Promise<FutureState> {
    const entry = this.entries.get(id);
    if (entry === undefined) throw this.unknown(id);
    if (entry.state.status === 'pending' && waitMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        entry.settled,
        new Promise((resolve) => {
          timer = setTimeout(resolve, waitMs);
        }),
      ]);
      clearTimeout(timer);
    }
    return entry.state;
  }

  private unknown(id: string): OpenClawError {
    if (this.style === 'integer') return new OpenClawError('not_found', 'Future not found', { param: 'request_id' });
    const m = /^([0-9a-f]{8})-(\d+)$/.exec(id);
    if (m !== null && (m[1] !== this.instance || Number(m[2]) < this.next)) {
      return new OpenClawError(
        'not_found',
        `request ${id} is no longer known to this server (it restarted, or the result was dropped after ${this.maxKept} newer ones): submit the request again`,
        { status: 410, param: 'request_id' },
      );
    }
    return new OpenClawError('not_found', `no request with id ${id} on this server`, { param: 'request_id' });
  }

  private onSettled(): void {
    this.finished += 1;
    if (this.finished <= this.maxKept) return;
    for (const [id, e] of this.entries) {
      if (this.finished <= this.maxKept) break;
      if (e.state.status === 'pending') continue;
      this.entries.delete(id);
      this.finished -= 1;
    }
  }
}
