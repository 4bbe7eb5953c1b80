// Gateway: the RL server's front door. OpenAI-compatible HTTP (chat completions streamed or not,
// models, health, metrics) plus the session endpoints; every main turn is resolved to a session
// and recorded with its tokens and log-probs. In: a ChatChannel and a SessionTracker. Out: HTTP.
export { buildGateway, bearerMatches, keyDigest, type GatewayOptions } from './server.ts';
export { ServerMetrics } from './metrics.ts';
export { SessionViews, type TurnSummary, type TurnJudgement } from './views.ts';
export { TokenResolver, type Retokenizer, type TurnTokens, type TokenCounters } from './tokens.ts';
export { AnswerAccumulator, stripTokenData } from './accumulate.ts';
export { parseChatRequest, type ParsedChatRequest } from './request.ts';
