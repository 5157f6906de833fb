import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpTransportKind } from './testing/connectMcpClient';
import { useMcpTestApp } from './testing/useMcpTestApp';

// Resources (fees, error catalog, opportunities with an APY-change subscription) and the
// deposit prompt, over both transports against the real app on PostgreSQL.
const { api, connect } = useMcpTestApp({ SVC_DISCOVERY_CACHE_MS: '0', SVC_MCP_POLL_MS: '200' });

const rest = async (path: string) => (await fetch(`${api().baseUrl}/api/v1${path}`)).json();

async function readJson(client: Client, uri: string): Promise<unknown> {
  const { contents } = await client.readResource({ uri });
  return JSON.parse((contents[0] as { text: string }).text);
}

describe.each<McpTransportKind>(['stdio', 'http'])('resources and prompts over %s', (kind) => {
  it('lists the fee schedule, the error catalog and the opportunities, read as REST', async () => {
    const client = await connect(kind, undefined);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      'yieldrouter://fees',
      'yieldrouter://errors',
      'yieldrouter://opportunities',
    ]);
    expect(await readJson(client, 'yieldrouter://fees')).toEqual(await rest('/svc/fees'));
    expect(await readJson(client, 'yieldrouter://errors')).toEqual(await rest('/svc/errors'));
  });

  it('notifies a subscriber of the opportunities when an APY changes', async () => {
    const client = await connect(kind, undefined);
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        resolve(notification.params.uri);
      });
    });
    await client.subscribeResource({ uri: 'yieldrouter://opportunities' });
    const venue = await api().db.venue.findFirstOrThrow();
    await api().db.apySample.create({
      data: {
        venueId: venue.id,
        source: 'test',
        status: 'ok',
        apyBps: 400 + Math.floor(Math.random() * 1000),
      },
    });
    await expect(updated).resolves.toBe('yieldrouter://opportunities');
    await client.unsubscribeResource({ uri: 'yieldrouter://opportunities' });
  });

  it('the deposit prompt chains the discovery, fee and plan tools', async () => {
    const client = await connect(kind, undefined);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['prepare-best-usdc-deposit']);
    const { messages } = await client.getPrompt({
      name: 'prepare-best-usdc-deposit',
      arguments: { chain: 'base', amountMicros: '5000000', owner: '0xabc' },
    });
    const text = (messages[0]?.content as { text: string }).text;
    for (const tool of ['listOpportunities', 'getFees', 'prepareDepositPlan']) {
      expect(text).toContain(tool);
    }
    expect(text).toMatch(/owner must sign/);
  });
});
