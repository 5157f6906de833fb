import { testKeys } from '@yieldrouter/api/testing/startTestApp';
import { clientRoutes, routeList } from '@yieldrouter/schemas';
import type { McpTransportKind } from './testing/connectMcpClient';
import { connectMcpClient } from './testing/connectMcpClient';
import { useMcpTestApp } from './testing/useMcpTestApp';

// Tool lists per role of the full toolset, over both transports, against the real app on
// PostgreSQL (the default core toolset: mcp.hostSession.test.ts).
const { api, connect } = useMcpTestApp({
  SVC_DISCOVERY_CACHE_MS: '60000',
  SVC_MCP_TOOLSET: 'full',
});

const KEEPER_ONLY = routeList
  .filter((route) => !(route.operationId in clientRoutes))
  .map((route) => route.operationId);

const authOf = (name: string) =>
  (clientRoutes as Record<string, { auth: 'public' | readonly string[] }>)[name]?.auth;

describe.each<McpTransportKind>(['stdio', 'http'])('tools over %s', (kind) => {
  it('public sees only public tools: no wallet tools', async () => {
    const { tools } = await (await connect(kind, undefined)).listTools();
    expect(tools.length).toBeGreaterThan(20);
    expect(
      tools.filter((tool) => authOf(tool.name) !== 'public' && tool.name !== 'verifyPlan'),
    ).toEqual([]);
    expect(tools.map((tool) => tool.name)).not.toContain('getPosition');
  });

  it('agent sees its wallet reads and no owner writes', async () => {
    const { tools } = await (await connect(kind, testKeys.agent)).listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['getPosition', 'previewRoute', 'discover']));
    for (const tool of tools) {
      const auth = authOf(tool.name);
      // verifyPlan is local (no route): it calls nothing and is listed to every key.
      expect(auth === 'public' || auth?.includes('agent') || tool.name === 'verifyPlan').toBe(true);
    }
    expect(names).not.toContain('routeFunds');
    expect(names).not.toContain('setAutoYield');
  });

  it('owner sees its writes with destructive hints; keeper-only operations are absent', async () => {
    const client = await connect(kind, testKeys.owner);
    const { tools } = await client.listTools();
    const routeFunds = tools.find((tool) => tool.name === 'routeFunds');
    expect(routeFunds?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(routeFunds?.description).toMatch(/the owner signs every leg/);
    expect(tools.find((tool) => tool.name === 'getFees')?.annotations?.readOnlyHint).toBe(true);
    for (const keeperOnly of KEEPER_ONLY) {
      expect(tools.map((tool) => tool.name)).not.toContain(keeperOnly);
    }
    const keeperCall = await client.callTool({ name: 'triggerHarvestBatch', arguments: {} });
    expect(keeperCall.isError).toBe(true);
  });

  it('a keeper key still sees no keeper-only operation', async () => {
    expect(KEEPER_ONLY).toEqual(expect.arrayContaining(['triggerHarvestBatch']));
    const { tools } = await (await connect(kind, testKeys.keeper)).listTools();
    const names = tools.map((tool) => tool.name);
    for (const keeperOnly of KEEPER_ONLY) expect(names).not.toContain(keeperOnly);
  });
});

describe('an unknown key', () => {
  it('stops the stdio command (the API answered 401) and is refused 401 at /mcp', async () => {
    await expect(
      connectMcpClient('stdio', api().baseUrl, 'unknown-key-0000000000'),
    ).rejects.toThrow();
    await expect(connectMcpClient('http', api().baseUrl, 'unknown-key-0000000000')).rejects.toThrow(
      /401|INVALID_API_KEY/,
    );
  });
});
