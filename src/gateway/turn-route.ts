// The model-turn route, shared by every wire protocol: parse (the protocol's adapter) → forward →
// (while the upstream works) resolve the session → stream/return the answer (rendered by the
// adapter) → record the turn. Streaming is real (each upstream chunk is rendered and written as it
// arrives); an upstream failure before the first byte keeps its status; after that it becomes the
// protocol's in-stream error, never a silently truncated 200. Failed answers are never recorded
// as training turns.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatChannel, ChatMessage } from '../engines/types.ts';
import { OpenClawError } from '../errors/index.ts';
import { prefixHashes, sessionHints, type SessionHints, type SessionTracker, type TurnHandle } from '../sessions/index.ts';
import { AnswerAccumulator, stripTokenData } from './accumulate.ts';
import { parseChatRequest, requestTokenData, type ParsedChatRequest } from './request.ts';
import type { TokenResolver } from './tokens.ts';
import { sessionIdHeader } from '../sessions/index.ts';
import { writable, type ShutdownGate } from './shutdown.ts';
import type { CanonicalRequest, WireProtocol } from './protocols/index.ts';
import { RequestView, sideCallRule, type SideCallRule } from './side-calls.ts';

/** What the turn route needs. */
export interface ChatDeps {
  channel: ChatChannel;
  tracker: SessionTracker;
  tokens: TokenResolver;
  modelId: string;
  maxTokensLimit: number;
  returnTokenIds: boolean;
  sidePatterns: RegExp[];
  /** Refuses prompts over the policy's context (throws a 400) before anything else happens. */
  contextGuard?: (messages: ChatMessage[], tools?: unknown[]) => unknown;
  onWarning?: (kind: 'no_session_id' | 'no_turn_type', count: number) => void;
  /** Refuses a model name the server does not serve (throws a 404 listing the accepted names). */
  checkModel?: (name: string | undefined) => void;
  /** Agents' helper calls (titles, quota probes, compaction, …) that are side turns. */
  sideCalls?: SideCallRule[];
  /** Told each request's protocol and what of it the policy could not use. */
  onProtocol?: (protocol: string, ignored: string[]) => void;
  /** Answers in flight, for shutdown to wait for or cut. */
  gate?: ShutdownGate;
}

/** The error to report for a failed call: the abort's own reason when we aborted it (shutdown). */
function abortReason(err: unknown, abort: AbortController | undefined): unknown {
  return abort?.signal.aborted && abort.signal.reason instanceof OpenClawError ? abort.signal.reason : err;
}

/** Result of one turn run through the gateway (used by POST /session). */
export interface RunTurnResult {
  handle: TurnHandle;
  body: Record<string, unknown>;
  message: ChatMessage;
  turnId?: number;
}

function sideByRule(view: RequestView, patterns: RegExp[]): boolean {
  return patterns.length > 0 && patterns.some((re) => re.test(view.system));
}

/** A validated request with its turn type decided: all the upstream call needs. */
export interface PreparedTurn {
  req: ParsedChatRequest;
  body: Record<string, unknown>;
  turnType: 'main' | 'side';
  /** The explicit session id and turn type (header, body field or the route's override). */
  sessionId?: string;
  /** Where the explicit session id came from (session-ids.ts, or `route` for an override). */
  sessionSource?: string;
  explicitType?: string;
  sideByRule: boolean;
  /** A side call carrying the session's history (compaction): its tool results are the pending turn's next state. */
  carriesHistory: boolean;
  /** Hints only the request's protocol carries (Claude Code's metadata.user_id). */
  hints?: Partial<SessionHints>;
}

/**
 * Validates the request and decides its turn type (main turns ask the upstream for token data).
 * Session bookkeeping is left to `trackTurn`, so it can run while the upstream works.
 */
export function prepareTurn(
  deps: ChatDeps,
  body: unknown,
  headers: Record<string, unknown>,
  overrides: { sessionId?: string; turnType?: string; hints?: Partial<SessionHints> } = {},
  text?: string,
): PreparedTurn {
  const req = parseChatRequest(body, headers, { modelId: deps.modelId, maxTokensLimit: deps.maxTokensLimit }, text);
  deps.contextGuard?.(req.messages, req.tools);
  const explicitType = overrides.turnType ?? req.meta.turnType;
  const view = new RequestView({ headers, body: body as Record<string, unknown>, messages: req.messages });
  const sideCall = deps.sideCalls !== undefined && explicitType === undefined ? sideCallRule(deps.sideCalls, view) : undefined;
  const ruled = sideByRule(view, deps.sidePatterns) || sideCall !== undefined;
  const turnType = deps.tracker.turnTypeOf({ turnType: explicitType, sideByRule: ruled });
  if (turnType === 'main') requestTokenData(req.upstreamBody.plain, deps.returnTokenIds);
  return {
    req,
    body: body as Record<string, unknown>,
    turnType,
    sessionId: overrides.sessionId ?? req.meta.sessionId,
    sessionSource: overrides.sessionId !== undefined ? 'route' : req.meta.sessionSource,
    explicitType,
    sideByRule: ruled,
    carriesHistory: sideCall?.carriesHistory === true,
    hints: overrides.hints,
  };
}

/** Resolves the session of a prepared request; for main turns, the previous turn gets its next state (and is finalised). */
export function trackTurn(deps: ChatDeps, p: PreparedTurn): TurnHandle {
  const { req } = p;
  const found = sessionHints(req.messages, p.body, req.meta.traceparent);
  const hints = p.hints !== undefined ? { ...found, ...p.hints } : found;
  const c = deps.tracker.counters;
  const [withoutSession, withoutType] = [c.requests_without_session_id, c.requests_without_turn_type];
  const handle = deps.tracker.begin({
    explicitSessionId: p.sessionId,
    explicitSource: p.sessionSource,
    turnType: p.explicitType,
    sessionDone: req.meta.sessionDone,
    messages: req.messages,
    prefix: p.turnType === 'main' ? prefixHashes(req.messages) : [],
    hints,
    sideByRule: p.sideByRule,
    carriesHistory: p.carriesHistory,
  });
  if (handle.turn) {
    handle.turn.tools = req.tools;
    handle.turn.toolsJson = req.toolsJson;
  }
  if (handle.turnType === 'main') deps.tracker.noteTrace(handle.sessionId, hints.traceId);
  if (c.requests_without_session_id > withoutSession) deps.onWarning?.('no_session_id', c.requests_without_session_id);
  if (c.requests_without_turn_type > withoutType) deps.onWarning?.('no_turn_type', c.requests_without_turn_type);
  return handle;
}

/**
 * Starts the upstream call, then does the session bookkeeping while the upstream works on the
 * answer. undici writes a request on a reused keep-alive socket at the check phase (it first lets
 * pending bytes on the idle socket be read); bookkeeping queued behind that runs once the request
 * has left.
 */
async function callAndTrack<T>(
  deps: ChatDeps,
  p: PreparedTurn,
  call: () => Promise<T>,
  abort?: AbortController,
): Promise<{ handle: TurnHandle; answer: Promise<T> }> {
  const answer = call();
  answer.catch(() => undefined); // a failure is thrown by `settled`, once the turn is tracked
  await new Promise<void>((resolve) => setImmediate(resolve));
  try {
    return { handle: trackTurn(deps, p), answer };
  } catch (err) {
    abort?.abort(err); // the call is out: stop it
    throw err;
  }
}

/** Records a completed main turn (no-op for side turns). */
function recordTurn(
  deps: ChatDeps,
  req: ParsedChatRequest,
  handle: TurnHandle,
  acc: AnswerAccumulator,
  version: number,
): number | undefined {
  if (handle.turnType !== 'main') return undefined;
  const message = acc.message();
  const tokens = deps.tokens.resolve(req.messages, req.tools, acc, message);
  const turn = deps.tracker.complete(handle, {
    message,
    finishReason: acc.finishReason,
    promptText: tokens.promptText,
    promptIds: tokens.promptIds,
    promptIdsJson: tokens.promptIdsJson,
    responseIds: tokens.responseIds,
    logprobs: tokens.logprobs,
    logprobMask: tokens.logprobMask,
    // The engine's own report (TokenChatChannel) beats the version read before the call.
    policyVersion: acc.policyVersion ?? version,
    tokenWarnings: tokens.warnings,
  });
  return turn?.turnId;
}

/** Waits for the upstream's answer; on failure the turn is failed (not recorded) and the error thrown. */
async function settled<T>(deps: ChatDeps, handle: TurnHandle, answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    deps.tracker.fail(handle);
    throw err;
  }
}

/** Gets one non-streamed answer: the upstream call and the session bookkeeping beside it. */
async function fetchCompletion(
  deps: ChatDeps,
  p: PreparedTurn,
  abort?: AbortController,
): Promise<{ handle: TurnHandle; acc: AnswerAccumulator; json: Record<string, unknown>; version: number }> {
  const version = deps.channel.version();
  const { handle, answer } = await callAndTrack(deps, p, () => deps.channel.complete(p.req.upstreamBody, abort?.signal), abort);
  const json = await settled(deps, handle, answer);
  const acc = new AnswerAccumulator();
  acc.addCompletion(json);
  return { handle, acc, json, version };
}

/** Runs one non-streamed turn and records it before returning (POST /session needs its turn id). */
export async function runTurn(deps: ChatDeps, p: PreparedTurn): Promise<RunTurnResult> {
  const abort = new AbortController();
  const leave = deps.gate?.enter(abort);
  let c: Awaited<ReturnType<typeof fetchCompletion>>;
  try {
    c = await fetchCompletion(deps, p, abort);
  } catch (err) {
    throw abortReason(err, abort);
  } finally {
    leave?.();
  }
  const turnId = recordTurn(deps, p.req, c.handle, c.acc, c.version);
  const body = p.req.clientWantsLogprobs ? c.json : stripTokenData(c.json, false, false);
  return { handle: c.handle, body, message: c.acc.message(), turnId };
}

/** A model turn in any wire protocol: parse into the canonical turn, answer, record, render. */
export async function handleTurn(deps: ChatDeps, protocol: WireProtocol, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const headers = request.headers as Record<string, unknown>;
  const canonical = protocol.parse(request.body, headers, request.bodyText);
  const p = prepareTurn(deps, canonical.chat, headers, { hints: canonical.hints }, canonical.text);
  deps.checkModel?.(canonical.model);
  deps.onProtocol?.(protocol.name, canonical.ignored);
  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort(new Error('client disconnected'));
  });
  const leave = deps.gate?.enter(abort);
  try {
    await answerTurn(deps, protocol, canonical, p, reply, abort);
  } catch (err) {
    throw abortReason(err, abort);
  } finally {
    leave?.();
  }
}

/** Keep-alive events while the policy is silent this long (protocols that have one). */
const PING_AFTER_MS = 10_000;

async function answerTurn(
  deps: ChatDeps,
  protocol: WireProtocol,
  canonical: CanonicalRequest,
  p: PreparedTurn,
  reply: FastifyReply,
  abort: AbortController,
): Promise<void> {
  const { req } = p;
  if (!req.stream) {
    const c = await fetchCompletion(deps, p, abort);
    reply.header('x-session-id', sessionIdHeader(c.handle.sessionId));
    // The turn line is written before the answer goes out: what the client received is on disk
    // (docs/reliability.md, "acknowledged").
    recordTurn(deps, req, c.handle, c.acc, c.version);
    await reply.send(protocol.render(c.json, c.acc, { canonical, parsed: req, sessionId: c.handle.sessionId }));
    return;
  }
  const version = deps.channel.version();
  const { handle, answer } = await callAndTrack(deps, p, () => deps.channel.stream(req.upstreamBody, abort.signal), abort);
  // An error before the first byte is thrown on: the error handler answers with the real status.
  const events = await settled(deps, handle, answer);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-session-id': sessionIdHeader(handle.sessionId),
  });
  const renderer = protocol.stream({ canonical, parsed: req, sessionId: handle.sessionId });
  const acc = new AnswerAccumulator();
  // Events that arrived together leave together, as one string in one socket write: the batch is
  // sent once the microtasks that parse it are done (a tick later), not event by event.
  let batch = renderer.start();
  let flushing = false;
  let lastWrite = Date.now();
  const flush = () => {
    flushing = false;
    if (batch !== '' && !res.destroyed) {
      res.write(batch);
      lastWrite = Date.now();
    }
    batch = '';
  };
  const ping = renderer.ping?.bind(renderer);
  const pinger =
    ping === undefined
      ? undefined
      : setInterval(() => {
          if (Date.now() - lastWrite >= PING_AFTER_MS && !res.destroyed && batch === '') {
            res.write(ping());
            lastWrite = Date.now();
          }
        }, PING_AFTER_MS / 2);
  pinger?.unref();
  const endWith = (text: string) => {
    if (pinger !== undefined) clearInterval(pinger);
    if (!res.destroyed) res.end(batch + text);
    batch = '';
  };
  if (batch !== '') {
    flushing = true;
    process.nextTick(flush);
  }
  try {
    for await (const ev of events) {
      // Back-pressure: while the client's socket is full, stop reading the upstream.
      if (res.writableNeedDrain) await writable(res, abort.signal);
      acc.addChunk(ev.chunk);
      batch += renderer.chunk(ev, acc);
      if (!flushing && batch !== '') {
        flushing = true;
        process.nextTick(flush);
      }
    }
  } catch (err) {
    deps.tracker.fail(handle);
    const reason = abortReason(err, abort);
    endWith(
      renderer.error(
        reason instanceof OpenClawError || abort.signal.aborted ? reason : new OpenClawError('upstream', String((err as Error).message)),
      ),
    );
    return;
  }
  // The answer so far must have reached the client's socket (no back-pressure left) before it is
  // a turn: one the client stopped reading and then left is not. The last batch leaves with the
  // end of the response, in one write.
  if (res.writableNeedDrain) await writable(res, abort.signal);
  if (res.destroyed || abort.signal.aborted) {
    deps.tracker.fail(handle);
    endWith(renderer.error(abortReason(abort.signal.reason, abort)));
    return;
  }
  // The turn line is written before the last batch and the end leave: a client that saw the end
  // has an acknowledged turn (docs/reliability.md). A journal that cannot be written (a full disk)
  // ends the stream with an error instead.
  try {
    recordTurn(deps, req, handle, acc, version);
  } catch (err) {
    endWith(
      renderer.error(
        err instanceof OpenClawError ? err : new OpenClawError('data', `the turn could not be recorded: ${(err as Error).message}`),
      ),
    );
    return;
  }
  endWith(renderer.end(acc));
}
