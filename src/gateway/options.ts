// What the gateway is built from (GatewayOptions): the upstream channel, session tracker, token
// resolver, views and metrics the app wires from the config, plus the server's limits and hooks
// into the app. In: nothing (types only). Out: the options `buildGateway` and its parts read.
import type { FastifyInstance } from 'fastify';
import type { OpenClawError } from '../errors/index.ts';
import type { ChatChannel, ChatMessage } from '../engines/types.ts';
import type { SessionTracker } from '../sessions/index.ts';
import type { ChatDeps } from './turn-route.ts';
import type { WireProtocol } from './protocols/index.ts';
import type { SideCallRule } from './side-calls.ts';
import type { ServerMetrics } from './metrics.ts';
import type { TokenResolver } from './tokens.ts';
import type { SessionViews } from './views.ts';
import type { DrainResult } from './shutdown.ts';

/** Everything the server is built from (wired by the app from the config). */
export interface GatewayOptions {
  channel: ChatChannel;
  tracker: SessionTracker;
  tokens: TokenResolver;
  views: SessionViews;
  metrics: ServerMetrics;
  servedModelName: string;
  upstreamModelId: string;
  /** Other model names clients may send (server.model_aliases; `*` wildcards). */
  modelAliases?: string[];
  /** Agents' helper calls that are side turns (server.side_calls). */
  sideCalls?: SideCallRule[];
  /** The policy's prompt ids for messages + tools (counts tokens for /v1/messages/count_tokens). */
  renderPrompt?: (messages: ChatMessage[], tools: unknown[] | undefined) => number[] | Promise<number[]>;
  maxTokensLimit: number;
  returnTokenIds: boolean;
  sidePatterns: RegExp[];
  /** Refuses prompts over the policy's context with a 400 before the upstream is called. */
  contextGuard?: ChatDeps['contextGuard'];
  bodyLimitBytes: number;
  apiKey?: string;
  /** Paths served without the API key (the dashboard's static page; its data API stays protected). */
  publicPath?: (path: string) => boolean;
  /** Extra fields for /healthz (mode, trainer state, …). */
  health?: () => Record<string, unknown>;
  /** True while something besides the upstream makes the server degraded (a storage fault): /healthz says so. */
  degraded?: () => boolean;
  /**
   * An error for new turns while they cannot be recorded (the app's storage monitor): chat
   * completions and POST /session answer with it before anything is sent to the model.
   */
  refuseTurn?: () => OpenClawError | undefined;
  /** Called as each response closes, with the requests still in flight (the app runs recording work when none is). */
  afterResponse?: (inFlight: number) => void;
  /** Called for requests without session id / turn type (counts), to log them. */
  onWarning?: ChatDeps['onWarning'];
  extraRoutes?: (app: FastifyInstance) => void;
  /** On close: how long answers in flight may take before they are cut (server.shutdown_grace_s). */
  shutdownGraceMs?: number;
  /** Told how the drain at close ended (logging). */
  onDrained?: (result: DrainResult) => void;
  /** The wire protocols to serve (default: one of each PROTOCOL_TABLE row); the app keeps them to forget sessions. */
  protocols?: WireProtocol[];
}
