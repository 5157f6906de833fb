import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export type McpTransportKind = 'stdio' | 'http';

/** The package's command, as `npx @yieldrouter/mcp` runs it (built before the tests). */
export const BIN = join(__dirname, '../../bin/yieldrouter-mcp.cjs');

/**
 * The official SDK's MCP client, connected to the API at `baseUrl` with `apiKey` (none: public):
 * over stdio to the package's command, or over Streamable HTTP to the API's /mcp.
 */
export async function connectMcpClient(
  kind: McpTransportKind,
  baseUrl: string,
  apiKey: string | undefined,
  extraEnv: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'yieldrouter-mcp-test', version: '0.0.0' });
  if (kind === 'stdio') {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN],
        env: {
          PATH: process.env['PATH'] ?? '',
          SVC_API_URL: baseUrl,
          ...(apiKey ? { SVC_API_KEY: apiKey } : {}),
          ...extraEnv,
        },
        stderr: 'pipe',
      }),
    );
  } else {
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
        requestInit: { headers: apiKey ? { 'X-API-Key': apiKey } : {} },
      }),
    );
  }
  return client;
}
