// Runs the scripted OpenAI-compatible upstream as its own process (for benchmarks and manual
// runs): prints `UPSTREAM <url>` on stdout once listening. Usage: node --import tsx bench/upstream-process.ts
import { ScriptedUpstream } from '../test/support/scripted-upstream.ts';

const up = new ScriptedUpstream();
up.keepRequests = false;
up.fallback = { kind: 'text', text: 'Sure. Here is a short answer with a few tokens in it.' };
await up.start();
process.stdout.write(`UPSTREAM ${up.url}\n`);
process.on('SIGTERM', () => void up.stop().then(() => process.exit(0)));
