// The model-turn routes: one POST per wire protocol at its path, each tagged with its protocol
// (auth header form, error shape), and Anthropic's count_tokens below /v1/messages. In: the
// protocols, the turn route's deps, `refuse` (throws while turns cannot be recorded). Out: routes.
import type { FastifyInstance } from 'fastify';
import { registerCountTokens } from '../count-tokens.ts';
import type { GatewayOptions } from '../options.ts';
import type { WireProtocol } from '../protocols/index.ts';
import { handleTurn, type ChatDeps } from '../turn-route.ts';

export function registerTurnRoutes(
  app: FastifyInstance,
  protocols: WireProtocol[],
  deps: ChatDeps,
  refuse: () => void,
  renderPrompt: GatewayOptions['renderPrompt'],
): void {
  for (const protocol of protocols) {
    app.post(protocol.path, { config: { protocol } }, (request, reply) => {
      refuse();
      return handleTurn(deps, protocol, request, reply);
    });
  }
  const anthropic = protocols.find((p) => p.path === '/v1/messages');
  if (anthropic !== undefined) registerCountTokens(app, anthropic, renderPrompt);
}
