// Runs the scripted OpenAI-compatible upstream as its own process (for benchmarks and manual
// runs): prints `UPSTREAM <url>` on stdout once listening.
// Usage: node --import tsx bench/upstream-process.ts [--prompt-chars-per-token N]
import { ScriptedUpstream } from '../test/support/scripted-upstream.ts';

const up = new ScriptedUpstream();
up.keepRequests = false;
up.fallback = { kind: 'text', text: 'Sure. Here is a short answer with a few tokens in it.' };
// `--prompt-chars-per-token N`: return the whole prompt's token ids, as an engine does.
const perToken = process.argv.indexOf('--prompt-chars-per-token');
if (perToken > 0) {
  const n = Number(process.argv[perToken + 1]);
  if (!(n > 0)) throw new Error(`--prompt-chars-per-token needs a positive number, not "${process.argv[perToken + 1] ?? ''}"`);
  up.promptCharsPerToken = n;
}
await up.start();
process.stdout.write(`UPSTREAM ${up.url}\n`);
process.on('SIGTERM', () => void up.stop().then(() => process.exit(0)));
