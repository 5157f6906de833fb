export { createMcpServer } from './createMcpServer';
export type { CreateMcpServerOptions } from './createMcpServer';
export { toolCatalog, toolsFor, audienceMayCall } from './tools/toolCatalog';
export { EXCLUDED_OPERATIONS } from './tools/excludedOperations';
export { isApiCallError } from './tools/callTool';
export type { ApiCallError, ArgumentGuard, GuardRefusal, OperationCaller } from './tools/callTool';
export type { Audience, ToolDefinition } from './tools/toolTypes';
export { RESOURCES, OPPORTUNITIES_URI } from './resources';
export { BEST_YIELD_PROMPT } from './prompts';
