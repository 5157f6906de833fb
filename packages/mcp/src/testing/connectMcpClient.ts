import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** stdio to the package's command, stdio to `npx @yieldrouter/mcp` at the repository root, or /mcp. */
export type McpTransportKind = 'stdio' | 'npx' | 'http';

/** The package's command, as `npx @yieldrouter/mcp` runs it (built before the tests). */
export const BIN = join(__dirname, '../../bin/yieldrouter-mcp.cjs');

/** The repository root, where the README runs `npx @yieldrouter/mcp` (a root devDependency). */
export const REPO_ROOT = join(__dirname, '../../../..');

// `--no`: npx must find the workspace's command, never fetch the package from the registry.
const STDIO_COMMANDS = {
  stdio: { command: process.execPath, args: [BIN], cwd: undefined },
  npx: { command: 'npx', args: ['--no', '@yieldrouter/mcp'], cwd: REPO_ROOT },
} as const;

/**
 * The official SDK's MCP client, connected to the API at `baseUrl` with `apiKey` (none: public):
 * over stdio to the package's command (run directly, or through npx at the repository root), or
 * over Streamable HTTP to the API's /mcp.
 */
export async function connectMcpClient(
  kind: McpTransportKind,
  baseUrl: string,
  apiKey: string | undefined,
  extraEnv: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'yieldrouter-mcp-test', version: '0.0.0' });
  if (kind !== 'http') {
    const { command, args, cwd } = STDIO_COMMANDS[kind];
    await client.connect(
      new StdioClientTransport({
        command,
        args: [...args],
        ...(cwd ? { cwd } : {}),
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
