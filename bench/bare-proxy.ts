// The benchmark's floor: the least any Node HTTP hop costs on this machine — Fastify parses the
// JSON body, an undici keep-alive pool forwards it, the answer (or the SSE bytes) goes back. No
// validation, no sessions, no recording. bench/gateway.ts measures it in the same run as the
// gateway, so "added latency" can be read against what a hop costs at all.
// Usage: node --import tsx bench/bare-proxy.ts <upstream base url>   (prints "at <url>/v1" on stderr)
import Fastify from 'fastify';
import { Pool } from 'undici';

const upstream = new URL(process.argv[2]);
const pool = new Pool(upstream.origin, { connections: 256, keepAliveTimeout: 30_000 });
const app = Fastify({ logger: false });
app.post('/v1/chat/completions', async (request, reply) => {
  const body = request.body as Record<string, unknown>;
  const res = await pool.request({
    path: `${upstream.pathname.replace(/\/$/, '')}/chat/completions`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (body.stream !== true) return res.body.json();
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
  for await (const chunk of res.body) reply.raw.write(chunk);
  reply.raw.end();
});
const addr = await app.listen({ host: '127.0.0.1', port: 0 });
process.stderr.write(`bare proxy at ${addr}/v1\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
