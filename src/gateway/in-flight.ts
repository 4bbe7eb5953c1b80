// Requests in flight and the close. Each response, as it closes, counts into the request metrics
// (route, status, latency) and tells `afterResponse` how many are still open; once closing, new
// requests get the 503 and `preClose` gives answers in flight the grace period. In: the gate, metrics.
import type { FastifyInstance } from 'fastify';
import type { GatewayOptions } from './options.ts';
import { shuttingDownError, type ShutdownGate } from './shutdown.ts';

/** The options the accounting and the drain read, with the grace period resolved. */
type InFlightOptions = Pick<GatewayOptions, 'metrics' | 'afterResponse' | 'onDrained'> & { graceMs: number };

export function trackRequests(app: FastifyInstance, gate: ShutdownGate, opts: InFlightOptions): void {
  // Shutdown: stop accepting connections (idle keep-alive ones close now), refuse requests that
  // still arrive on open ones (in the hook below), and give answers in flight the grace period.
  app.addHook('preClose', async () => {
    app.server.close();
    const result = await gate.drain(opts.graceMs);
    opts.onDrained?.(result);
  });

  // A plain 'close' listener instead of an async onResponse hook: it also fires for hijacked
  // (streamed) replies, and costs no promise per request.
  let inFlight = 0;
  app.addHook('onRequest', (request, reply, done) => {
    const start = performance.now();
    inFlight++;
    reply.raw.once('close', () => {
      inFlight--;
      const route = request.routeOptions.url ?? 'unknown';
      opts.metrics.requests.inc({ route, status: String(reply.raw.statusCode) });
      opts.metrics.latency.observe({ route }, (performance.now() - start) / 1000);
      opts.afterResponse?.(inFlight);
    });
    if (!gate.closing) return done();
    reply.header('connection', 'close');
    done(shuttingDownError());
  });
}
