import type { ClientOptions } from './clientOptions';
import { resolveClientConfig } from './clientOptions';
import { buildRequest } from './http/buildRequest';
import { readResult } from './http/readResult';
import { sendRequest } from './http/sendRequest';
import type { RawParameters, YieldRouterClient } from './operationTypes';
import { clientRoute } from './routes/clientRoute';
import { responseSchemas } from './routes/responseSchemas';
import { routeTable } from './routes/routeTable';
import { createResources } from './resources/createResources';

/**
 * A client with one method per route of the API manifest, named by operationId. Parameters
 * and results are typed from the same zod schemas the API validates with; results are
 * validated at run time too (`validateResponses`, on by default): a domain's response schemas
 * (plans, wallets, autopilot, …) load the first time one of its routes answers, so the core
 * bundle carries none of them.
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
  for (const [operationId, entry] of Object.entries(routeTable)) {
    const route = clientRoute(operationId, entry);
    client[operationId] = async (parameters = {}) => {
      const request = buildRequest(config, route, parameters);
      // The schemas load while the request is on the wire.
      const schemas = config.validateResponses ? responseSchemas(route.domain) : undefined;
      schemas?.catch(() => undefined);
      const response = await sendRequest(config, request, parameters);
      return readResult(route, response, (await schemas)?.[operationId]);
    };
  }
  // The same calls by resource, in the domain's words (`client.plans.deposit({...})`).
  return Object.freeze({ ...client, ...createResources(client) }) as unknown as YieldRouterClient;
}
