import type { YieldRouterClient } from '@yieldrouter/sdk';
import type { OperationCaller } from '@yieldrouter/mcp-server';

/**
 * The MCP server's calls as SDK calls: one client method per operationId, which validates
 * every answer with the route's response schema and throws YieldRouterError on refusals.
 */
export function sdkCaller(client: YieldRouterClient): OperationCaller {
  const operations = client as unknown as Readonly<
    Record<string, ((parameters: unknown) => Promise<unknown>) | undefined>
  >;
  return (operationId, parameters) => {
    const operation = operations[operationId];
    if (!operation) return Promise.reject(new Error(`the SDK has no operation ${operationId}`));
    return operation(parameters);
  };
}
