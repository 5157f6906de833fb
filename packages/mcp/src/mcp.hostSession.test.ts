import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TEST_WALLET, testKeys } from '@yieldrouter/api/testing/startTestApp';
import { CORE_TOOLS } from '@yieldrouter/mcp-server';
import type { McpTransportKind } from './testing/connectMcpClient';
import { useMcpTestApp } from './testing/useMcpTestApp';

// A host on the default (core) toolset, as an agent key uses it: discover → prepare a deposit →
// read the position, over stdio and /mcp against the real app on PostgreSQL. Every result's
// text block is its data as JSON (a host that shows only text shows the data).
const VAULT = '0x52908400098527886E0F7030069857D2E4169EE7';

const { connect } = useMcpTestApp({
  SVC_DISCOVERY_CACHE_MS: '60000',
  SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: VAULT } }),
});

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

/** The result's one text block, parsed: it must be JSON, and the same as structuredContent. */
function dataOf(result: ToolResult): Record<string, unknown> {
  expect(result.content).toHaveLength(1);
  const [content] = result.content as { type: string; text: string }[];
  expect(content?.type).toBe('text');
  const data = JSON.parse(content?.text ?? '') as Record<string, unknown>;
  if (!result.isError) expect(data).toEqual(result.structuredContent);
  return data;
}

/** The first object in `value` whose `venueId` is `venueId`. */
function findVenue(value: unknown, venueId: string): Record<string, unknown> | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findVenue(item, venueId);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const object = value as Record<string, unknown>;
  if (object['venueId'] === venueId) return object;
  return findVenue(Object.values(object), venueId);
}

describe.each<McpTransportKind>(['stdio', 'http'])('a host session over %s', (kind) => {
  it('lists the core toolset: at most 20 tools, no deprecated or alias operation', async () => {
    const { tools } = await (await connect(kind, testKeys.agent)).listTools();
    const names = tools.map((tool) => tool.name);
    expect(names.length).toBeLessThanOrEqual(20);
    // verifyPlan is local (the offline verifier): listed with every toolset.
    expect(names.every((name) => name in CORE_TOOLS || name === 'verifyPlan')).toBe(true);
    expect(names).toContain('verifyPlan');
    expect(names).toEqual(expect.arrayContaining(['listOpportunities', 'getPosition']));
    for (const hidden of ['listForms', 'getReadiness', 'postEstimates', 'routeFunds']) {
      expect(names).not.toContain(hidden);
    }
  });

  it('discover → prepare a deposit → read the position; every text is JSON', async () => {
    const client = await connect(kind, testKeys.agent);
    const listed = dataOf(await client.callTool({ name: 'listOpportunities', arguments: {} }));
    const morpho = findVenue(listed, 'morpho');
    expect(morpho?.['opportunityId']).toMatch(/^svcop/);
    const plan = await client.callTool({
      name: 'prepareDepositPlan',
      arguments: {
        opportunityId: morpho?.['opportunityId'],
        amountMicros: '25000000',
        owner: TEST_WALLET,
      },
    });
    expect(plan.isError).toBeFalsy();
    const planData = dataOf(plan);
    expect(planData).toMatchObject({ status: 'prepared', submitted: false, ownerMustSign: true });
    expect(Object.keys(planData).slice(0, 2)).toEqual(['status', 'planId']);
    const position = await client.callTool({
      name: 'getPosition',
      arguments: { address: TEST_WALLET },
    });
    expect(position.isError).toBeFalsy();
    expect(dataOf(position)).toEqual(position.structuredContent);
    const refused = await client.callTool({
      name: 'prepareDepositPlan',
      arguments: { opportunityId: 'svcop00', amountMicros: '1.5', owner: TEST_WALLET },
    });
    expect(refused.isError).toBe(true);
    expect(dataOf(refused)).toMatchObject({ code: 'BAD_REQUEST', field: 'amountMicros' });
  });
});
