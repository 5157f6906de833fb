import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../createMcpServer';

// The offline verifier as a tool: listed to every key, answered without calling the API.
const OWNER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const VAULT = '0x1111111111111111111111111111111111111111';
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const THIEF = '0x6666666666666666666666666666666666666666';
const PLAN = 'plan_00112233445566778899aabbccddeeff';
const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');
/** `approve(spender, 5 USDC)` tagged with the plan, as chain-evm encodes it. */
const approve = (spender: string) =>
  `0x095ea7b3${word(spender)}${word((5_000_000).toString(16))}53564331${PLAN.slice(5)}`;
const plan = (spender: string) => ({
  planId: PLAN,
  status: 'prepared',
  submitted: false,
  ownerMustSign: true,
  feeMicros: '0',
  legs: [
    {
      index: 0,
      action: 'approve',
      summary: 'Approve the vault',
      amountMicros: '5000000',
      settles: false,
      status: 'unsigned',
      txId: null,
      encoding: 'evm-transaction-request',
      transaction: { chainId: 8453, from: OWNER, to: USDC, data: approve(spender), value: '0' },
    },
  ],
});

async function connect() {
  const server = createMcpServer({
    call: () => Promise.reject(new Error('verifyPlan must not call the API')),
    audience: 'public',
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

describe('the verifyPlan tool', () => {
  it('is listed without a key, read-only, with its input and output schemas', async () => {
    const { tools } = await (await connect()).listTools();
    const tool = tools.find((listed) => listed.name === 'verifyPlan');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tool?.inputSchema.required).toEqual(['plan', 'owner']);
    expect(tool?.outputSchema?.properties).toHaveProperty('reasons');
  });

  it('verifies an honest plan and rejects an approval to a foreign spender, offline', async () => {
    const client = await connect();
    const honest = await client.callTool({
      name: 'verifyPlan',
      arguments: { plan: plan(VAULT), owner: OWNER, venues: [VAULT, USDC] },
    });
    expect(honest.structuredContent).toMatchObject({ status: 'verified', reasons: [] });
    expect(honest.structuredContent).toMatchObject({
      legs: [{ effects: [{ kind: 'approve', spender: VAULT, amount: '5000000' }] }],
    });
    const foreign = await client.callTool({
      name: 'verifyPlan',
      arguments: { plan: plan(THIEF), owner: OWNER, venues: [VAULT, USDC] },
    });
    expect(foreign.structuredContent).toMatchObject({
      status: 'rejected',
      reasons: [{ code: 'approval_to_foreign_spender', leg: 0 }],
    });
  });

  it('answers bad arguments with BAD_REQUEST naming the field', async () => {
    const result = await (
      await connect()
    ).callTool({
      name: 'verifyPlan',
      arguments: { plan: plan(VAULT) },
    });
    expect(result.isError).toBe(true);
    const [content] = result.content as { text: string }[];
    expect(JSON.parse(content?.text ?? '')).toMatchObject({ code: 'BAD_REQUEST', field: 'owner' });
  });
});
