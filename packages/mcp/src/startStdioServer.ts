import { createHash } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createClient } from '@yieldrouter/sdk';
import { createMcpServer } from '@yieldrouter/mcp-server';
import { ApiConnection } from './apiConnection';
import type { McpEnv } from './env';
import { sdkCaller } from './sdkCaller';

/** How long one attempt to reach the API may take before it counts as unreachable. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * The stdio server (`npx @yieldrouter/mcp`): an SDK client on SVC_API_URL with SVC_API_KEY, the
 * key's role asked of the API, and the MCP server on this process's stdin and stdout. It starts
 * whether or not the API is up: until the API answers it keeps retrying (bounded backoff) and a
 * tool call is a tool error API_UNREACHABLE naming the URL; then the tool list is the key's and
 * the host is told it changed. A key the API refuses (401) stops it.
 */
export async function startStdioServer(env: McpEnv): Promise<Server> {
  const clientOptions = {
    baseUrl: env.SVC_API_URL,
    ...(env.SVC_API_KEY ? { apiKey: env.SVC_API_KEY } : {}),
    userAgent: 'yieldrouter-mcp',
  };
  // Set once the host is connected: only then is a changed tool list worth telling it.
  const host: { server?: Server } = {};
  const connection = new ApiConnection({
    client: createClient({ ...clientOptions, retries: 0, timeoutMs: PROBE_TIMEOUT_MS }),
    baseUrl: env.SVC_API_URL,
    hasKey: env.SVC_API_KEY !== undefined,
    maxDelayMs: env.SVC_MCP_RETRY_MAX_MS,
    onConnected: () => {
      host.server?.sendToolListChanged().catch(() => undefined);
    },
  });
  await connection.connect();
  const server = createMcpServer({
    call: sdkCaller(createClient(clientOptions), env.SVC_API_URL),
    audience: 'public',
    apiState: () => connection.state(),
    toolset: env.SVC_MCP_TOOLSET,
    idempotencyScope: createHash('sha256')
      .update(env.SVC_API_KEY ?? 'public')
      .digest('hex'),
    pollIntervalMs: env.SVC_MCP_POLL_MS,
  });
  const closeWatch = server.onclose;
  server.onclose = () => {
    closeWatch?.();
    connection.stop();
  };
  await server.connect(new StdioServerTransport());
  host.server = server;
  connection.retryInBackground();
  return server;
}
