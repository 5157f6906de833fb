import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ListeningTestApp } from '@yieldrouter/api/testing/listenTestApp';
import { listenTestApp } from '@yieldrouter/api/testing/listenTestApp';
import type { McpTransportKind } from './connectMcpClient';
import { connectMcpClient } from './connectMcpClient';

export interface McpTestApp {
  /** The real API (fresh PostgreSQL database, real Redis), listening; set in beforeAll. */
  readonly api: () => ListeningTestApp;
  /** An MCP client over `kind` with `key` (none: public), closed after the suite. */
  readonly connect: (kind: McpTransportKind, key: string | undefined) => Promise<Client>;
}

/**
 * Registers beforeAll / afterAll for a suite: the API with `env` (also given to the stdio
 * command), and MCP clients that are all closed at the end. Fails, never skips, when
 * PostgreSQL or Redis cannot be reached.
 */
export function useMcpTestApp(env: Record<string, string> = {}): McpTestApp {
  let api: ListeningTestApp | undefined;
  const clients: Client[] = [];
  beforeAll(async () => {
    api = await listenTestApp(env);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await api?.close();
  });
  const started = () => {
    if (!api) throw new Error('the test app has not started');
    return api;
  };
  return {
    api: started,
    connect: async (kind, key) => {
      const client = await connectMcpClient(kind, started().baseUrl, key, env);
      clients.push(client);
      return client;
    },
  };
}
