import { clientRoutes } from '@yieldrouter/schemas';
import type { RouteDefinition } from '@yieldrouter/schemas';
import type { ClientOptions } from './clientOptions';
import { resolveClientConfig } from './clientOptions';
import { buildRequest } from './http/buildRequest';
import { readResult } from './http/readResult';
import { sendRequest } from './http/sendRequest';
import type { RawParameters, YieldRouterClient } from './operationTypes';

/**
 * A client with one method per route of the API manifest, named by operationId. Parameters
 * and results are typed from the same zod schemas the API validates with; results are
 * validated at run time too (`validateResponses`, on by default).
 *
 * Idempotent calls (GET, and money calls, which get an Idempotency-Key generated unless you
 * pass `idempotencyKey`) are retried on connection errors, 429 and 5xx with backoff.
 *
 * @example
 * import { createClient } from '@yieldrouter/sdk';
 *
 * const client = createClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.KEY });
 * const status = await client.getStatus();
 * const balance = await client.getSolanaWalletBalance({ query: { address } });
 * for (const leg of balance.legs) console.log(leg.asset, leg.display); // 'N/A' when unread
 */
export function createClient(options: ClientOptions): YieldRouterClient {
  const config = resolveClientConfig(options);
  const client: Record<string, (parameters?: RawParameters) => Promise<unknown>> = {};
  // Keyed by operationId: the bundle drops the field from each route (see build/), so it is
  // taken from the key here.
  for (const [operationId, declared] of Object.entries(clientRoutes)) {
    const route: RouteDefinition = { ...declared, operationId };
    client[operationId] = async (parameters = {}) => {
      const request = buildRequest(config, route, parameters);
      const response = await sendRequest(config, request, parameters);
      return readResult(route, response, config.validateResponses);
    };
  }
  return Object.freeze(client) as unknown as YieldRouterClient;
}
