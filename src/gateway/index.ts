// Gateway: the RL server's front door. Model turns in three wire protocols (OpenAI Chat
// Completions, Anthropic Messages, OpenAI Responses; protocols/index.ts), streamed or not, plus
// models, health, metrics and the session endpoints; every main turn is resolved to a session
// and recorded with its tokens and log-probs. In: a ChatChannel and a SessionTracker. Out: HTTP.
export { buildGateway, bearerMatches, keyDigest, type GatewayOptions } from './server.ts';
export { ServerMetrics } from './metrics.ts';
export { SessionViews, type TurnSummary, type TurnJudgement } from './views.ts';
export { TokenResolver, type Retokenizer, type TurnTokens, type TokenCounters } from './tokens.ts';
export { AnswerAccumulator, stripTokenData } from './accumulate.ts';
export { parseChatRequest, type ParsedChatRequest } from './request.ts';
export { sideCallRules, SIDE_CALL_RULES, type SideCallRule } from './side-calls.ts';
export { PROTOCOL_TABLE, type WireProtocol } from './protocols/index.ts';
