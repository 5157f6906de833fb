import { createHash } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createClient } from '@yieldrouter/sdk';
import { createMcpServer } from '@yieldrouter/mcp-server';
import { describeApiKey } from './describeApiKey';
import type { McpEnv } from './env';
import { sdkCaller } from './sdkCaller';

/**
 * The stdio server (`npx @yieldrouter/mcp`): an SDK client on SVC_API_URL with SVC_API_KEY, the
 * key's role asked of the API, and the MCP server on this process's stdin and stdout.
 */
export async function startStdioServer(env: McpEnv): Promise<Server> {
  const client = createClient({
    baseUrl: env.SVC_API_URL,
    ...(env.SVC_API_KEY ? { apiKey: env.SVC_API_KEY } : {}),
    userAgent: 'yieldrouter-mcp',
  });
  const { audience, implemented } = await describeApiKey(client, env.SVC_API_KEY !== undefined);
  const server = createMcpServer({
    call: sdkCaller(client),
    audience,
    implemented,
    idempotencyScope: createHash('sha256')
      .update(env.SVC_API_KEY ?? 'public')
      .digest('hex'),
    pollIntervalMs: env.SVC_MCP_POLL_MS,
  });
  await server.connect(new StdioServerTransport());
  return server;
}
