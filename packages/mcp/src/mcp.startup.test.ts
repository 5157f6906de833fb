import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ListeningTestApp } from '@yieldrouter/api/testing/listenTestApp';
import { listenTestApp } from '@yieldrouter/api/testing/listenTestApp';
import { connectMcpClient } from './testing/connectMcpClient';

// A host starts the stdio server before the API is up (or the API restarts): the server stays,
// says at each call that the API is not reachable at its URL, and answers once the API is up.
// Before, it exited after the SDK's retries (~7 s) and the host showed "Connection closed".

/** A local port nothing listens on (taken, then given back). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const errorOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  JSON.parse((result.content as { text: string }[])[0]?.text ?? '') as {
    code: string;
    message: string;
  };

let client: Client | undefined;
let api: ListeningTestApp | undefined;
afterAll(async () => {
  await client?.close();
  await api?.close();
});

describe('the stdio server without the API', () => {
  it('starts, reports API_UNREACHABLE at each call, never exits, then answers', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    client = await connectMcpClient('stdio', baseUrl, undefined, { SVC_MCP_RETRY_MAX_MS: '500' });
    let listChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged += 1;
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('listOpportunities');
    const early = await client.callTool({ name: 'listOpportunities', arguments: {} });
    expect(early.isError).toBe(true);
    expect(errorOf(early).code).toBe('API_UNREACHABLE');
    expect(errorOf(early).message).toContain(`not reachable at ${baseUrl}`);
    // Longer than the ~7 s after which it used to exit, with an attempt every 500 ms meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 8000));
    const later = await client.callTool({ name: 'getFees', arguments: {} });
    expect(errorOf(later).code).toBe('API_UNREACHABLE');
    api = await listenTestApp({}, {}, port);
    const answered = await client.callTool({ name: 'getFees', arguments: {} });
    expect(answered.isError).toBeFalsy();
    expect(JSON.parse((answered.content as { text: string }[])[0]?.text ?? '')).toEqual(
      answered.structuredContent,
    );
    // The host is told the list may have changed (the key's role is known now).
    await client.listTools();
    expect(listChanged).toBe(1);
  }, 60_000);
});
