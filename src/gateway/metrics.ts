// Prometheus metrics of the server (`GET /metrics`): request counters and latency, plus gauges
// read from components' counters at scrape time so the request path only increments numbers.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Registry with the gateway's own metrics; other components add gauges through `addGauges`. */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'status'>;
  readonly latency: Histogram<'route'>;

  constructor() {
    this.requests = new Counter({
      name: 'openclaw_rl_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['route', 'status'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'openclaw_rl_request_seconds',
      help: 'Time to the end of the answer, by route',
      labelNames: ['route'],
      buckets: [0.005, 0.02, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers: [this.registry],
    });
  }

  /** Exposes each number of `read()` as a gauge `openclaw_rl_<prefix>_<key>`. */
  addGauges(prefix: string, help: string, read: () => Record<string, number>): void {
    const keys = Object.keys(read());
    for (const key of keys) {
      new Gauge({
        name: `openclaw_rl_${prefix}_${key}`.replace(/[^a-zA-Z0-9_]/g, '_'),
        help: `${help}: ${key}`,
        registers: [this.registry],
        collect() {
          const v = read()[key];
          this.set(Number.isFinite(v) ? v : 0);
        },
      });
    }
  }
}
