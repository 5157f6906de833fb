import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TEST_WALLET, testKeys } from '@yieldrouter/api/testing/startTestApp';
import type { McpTransportKind } from './testing/connectMcpClient';
import { useMcpTestApp } from './testing/useMcpTestApp';

// Tool calls over both transports against the real app on PostgreSQL: the same bodies as REST,
// one write per retried call, tool errors naming the field, the key-material guard.
const VAULT = '0x52908400098527886E0F7030069857D2E4169EE7';
const OWNER = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const SEED = 'abandon '.repeat(11) + 'about';

const { api, connect } = useMcpTestApp({
  SVC_DISCOVERY_CACHE_MS: '60000',
  SVC_MCP_TOOLSET: 'full',
  SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: VAULT } }),
});

async function rest(path: string, init: { body?: unknown; key?: string } = {}): Promise<unknown> {
  const response = await fetch(`${api().baseUrl}/api/v1${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      'content-type': 'application/json',
      ...(init.key ? { 'x-api-key': init.key } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return response.json();
}

/** A plan body without what differs between two plans of the same request. */
function withoutIdentity(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIdentity);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !['planId', 'createdAt', 'expiresAt', 'memo', 'data'].includes(key))
      .map(([key, item]) => [key, withoutIdentity(item)]),
  );
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((item) => item.text).join('\n');

describe.each<McpTransportKind>(['stdio', 'http'])('tool calls over %s', (kind) => {
  it('a discovery tool answers the REST body, as structured content and as JSON text', async () => {
    const client = await connect(kind, undefined);
    const result = await client.callTool({ name: 'listOpportunities', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await rest('/svc/opportunities'));
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('a deposit plan answers the REST body and says nothing moved', async () => {
    const client = await connect(kind, undefined);
    const args = { strategyId: 'morpho', amountMicros: '25000000', owner: OWNER };
    const result = await client.callTool({ name: 'prepareDepositPlan', arguments: args });
    expect(result.isError).toBeFalsy();
    const plan = result.structuredContent as { status: string; submitted: boolean };
    expect(plan).toMatchObject({ status: 'prepared', submitted: false, ownerMustSign: true });
    expect(withoutIdentity(plan)).toEqual(
      withoutIdentity(await rest('/svc/strategies/deposit/plan', { body: args })),
    );
    expect(JSON.parse(textOf(result))).toEqual(plan);
    expect(textOf(result)).toMatch(/^\{"status":"prepared","planId":"[^"]+","submitted":false,/);
  });

  it('an owner write retried by the model makes one plan', async () => {
    const client = await connect(kind, testKeys.owner);
    // Another amount per transport: both derive the key from the same API key and arguments.
    const amountMicros = kind === 'stdio' ? '3000000' : '4000000';
    const args = { address: TEST_WALLET, amountMicros, token: 'USDC', chain: 'base' };
    const before = await api().db.plan.count();
    const first = await client.callTool({ name: 'routeFunds', arguments: args });
    const retry = await client.callTool({ name: 'routeFunds', arguments: args });
    expect(first.isError).toBeFalsy();
    expect(retry.structuredContent).toEqual(first.structuredContent);
    expect(await api().db.plan.count()).toBe(before + 1);
  });

  it('bad arguments are tool errors naming the field', async () => {
    const client = await connect(kind, undefined);
    const result = await client.callTool({
      name: 'prepareDepositPlan',
      arguments: { strategyId: 'morpho', amountMicros: '1.5', owner: OWNER },
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({
      code: 'BAD_REQUEST',
      field: 'amountMicros',
    });
    const unknown = await client.callTool({ name: 'getFees', arguments: { surprise: 1 } });
    expect(unknown.isError).toBe(true);
    expect(JSON.parse(textOf(unknown))).toMatchObject({ code: 'BAD_REQUEST', field: 'surprise' });
  });

  it('key material in an argument is refused and never echoed', async () => {
    const client = await connect(kind, undefined);
    const result = await client.callTool({
      name: 'prepareDepositPlan',
      arguments: { strategyId: 'morpho', amountMicros: '1000000', owner: SEED },
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ code: 'KEY_MATERIAL_REFUSED' });
    expect(textOf(result)).not.toContain('abandon');
  });

  it('an agent key is refused for a wallet outside its scope', async () => {
    const client = await connect(kind, testKeys.agent);
    const result = await client.callTool({
      name: 'getPosition',
      arguments: { address: OWNER },
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ code: 'WALLET_SCOPE' });
  });
});

describe('retries across /mcp sessions', () => {
  it('a retry from a new session (the client reconnected) still makes one plan', async () => {
    const args = { address: TEST_WALLET, amountMicros: '5000000', token: 'USDC', chain: 'base' };
    const before = await api().db.plan.count();
    const first = await (
      await connect('http', testKeys.owner)
    ).callTool({
      name: 'routeFunds',
      arguments: args,
    });
    const retry = await (
      await connect('http', testKeys.owner)
    ).callTool({
      name: 'routeFunds',
      arguments: args,
    });
    expect(first.isError).toBeFalsy();
    expect(retry.structuredContent).toEqual(first.structuredContent);
    expect(await api().db.plan.count()).toBe(before + 1);
  });
});
