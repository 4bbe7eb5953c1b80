// `openclaw-rl forget`: removes sessions from a run's records (app/forget.ts), either through a
// running server (`--url`, DELETE /sessions/…) or directly in a stopped run's folder. Prints one
// JSON report per forgotten session on stdout, and a line a person reads on stderr.
import { OpenClawError } from '../errors/index.ts';
import type { ForgetReport } from '../app/index.ts';
import { STOPPED_RUN_HINT, withRunStore } from './run.ts';
import { callServer } from './server-call.ts';

/** What the command was asked. */
export interface ForgetCommand {
  session?: string;
  before?: string;
  url?: string;
  apiKey?: string;
  /** The stopped run's folder (without --url). */
  dir: string;
}

/** Runs the command; returns the reports it printed. */
export async function forgetCommand(c: ForgetCommand, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<ForgetReport[]> {
  if ((c.session === undefined) === (c.before === undefined)) {
    throw new OpenClawError('invalid_request', 'forget: give exactly one of --session ID or --before DATE');
  }
  const { parseBefore } = await import('../app/index.ts');
  const beforeMs = c.before !== undefined ? parseBefore(c.before, '--before') : undefined;
  const reports = c.url !== undefined ? await forgetThroughServer(c, c.url) : await forgetStoppedRun(c, beforeMs);
  for (const r of reports) {
    out.write(`${JSON.stringify(r)}\n`);
    err.write(`openclaw-rl: forgot session ${r.session_id} (turns 1–${r.through_turn})${r.note ? `; ${r.note}` : ''}\n`);
  }
  if (reports.length === 0) err.write('openclaw-rl: no session was idle since before that date; nothing forgotten\n');
  return reports;
}

async function forgetThroughServer(c: ForgetCommand, url: string): Promise<ForgetReport[]> {
  const what = 'forget';
  if (c.session !== undefined) {
    return [await callServer<ForgetReport>(url, 'DELETE', `/sessions/${encodeURIComponent(c.session)}`, { apiKey: c.apiKey, what })];
  }
  const r = await callServer<{ forgotten: ForgetReport[] }>(url, 'DELETE', `/sessions?before=${encodeURIComponent(c.before!)}`, {
    apiKey: c.apiKey,
    what,
  });
  return r.forgotten;
}

async function forgetStoppedRun(c: ForgetCommand, beforeMs: number | undefined): Promise<ForgetReport[]> {
  const { finishForgets, forgetOffline, runFiles } = await import('../app/index.ts');
  return withRunStore(c.dir, STOPPED_RUN_HINT, async (store) => {
    const files = runFiles(c.dir);
    await finishForgets(store, files);
    if (c.session !== undefined) return [await forgetOffline(store, files, c.session)];
    const out: ForgetReport[] = [];
    for (const s of store.sessionsIdleBefore(beforeMs!)) out.push(await forgetOffline(store, files, s.sessionId));
    return out;
  });
}
