import type { YieldRouterClient } from '@yieldrouter/sdk';
import { ConnectionError } from '@yieldrouter/sdk';
import type { ApiCallError, OperationCaller } from '@yieldrouter/mcp-server';
import { unreachableMessage } from './apiConnection';

/** A call that got no answer, as the tool error a model reads: the API is not reachable. */
function unreachable(error: ConnectionError, baseUrl: string): ApiCallError {
  return Object.assign(new Error(unreachableMessage(baseUrl), { cause: error }), {
    status: 503,
    code: 'API_UNREACHABLE',
  });
}

/**
 * The MCP server's calls as SDK calls: one client method per operationId, which validates
 * every answer with the route's response schema and throws YieldRouterError on refusals (no
 * answer at all: an API_UNREACHABLE error naming `baseUrl`).
 */
export function sdkCaller(client: YieldRouterClient, baseUrl: string): OperationCaller {
  const operations = client as unknown as Readonly<
    Record<string, ((parameters: unknown) => Promise<unknown>) | undefined>
  >;
  return async (operationId, parameters) => {
    const operation = operations[operationId];
    if (!operation) throw new Error(`the SDK has no operation ${operationId}`);
    try {
      return await operation(parameters);
    } catch (error) {
      throw error instanceof ConnectionError ? unreachable(error, baseUrl) : error;
    }
  };
}
