export {
  BEST_YIELD_PROMPT,
  EXCLUDED_OPERATIONS,
  IdempotencyWindow,
  OPPORTUNITIES_URI,
  RESOURCES,
  createMcpServer,
  toolCatalog,
  toolsFor,
} from '@yieldrouter/mcp-server';
export type {
  ApiCallError,
  ArgumentGuard,
  Audience,
  CreateMcpServerOptions,
  GuardRefusal,
  IdempotencyWindowOptions,
  OperationCaller,
  ToolDefinition,
} from '@yieldrouter/mcp-server';
export { sdkCaller } from './sdkCaller';
export { describeApiKey } from './describeApiKey';
export type { ApiKeyDescription } from './describeApiKey';
export { startStdioServer } from './startStdioServer';
export { readMcpEnv } from './env';
export type { McpEnv } from './env';
