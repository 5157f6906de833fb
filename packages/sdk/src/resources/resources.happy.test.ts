import { expectTypeOf } from 'expect-type';
import { TEST_WALLET, testKeys } from '@yieldrouter/api/testing/startTestApp';
import type { OpportunityList } from '@yieldrouter/schemas';
import { createClient } from '../createClient';
import { NotFoundError } from '../errors/httpErrors';
import type { OperationResult } from '../operationTypes';
import type { ListeningTestApp } from '../testing/listenTestApp';
import { listenTestApp } from '../testing/listenTestApp';
import { startScriptedServer } from '../testing/scriptedServer';

// The resource namespaces against the real API: the same answers as the flat methods, the path
// parameters as arguments, the body or query as one object; typed errors and retries are the
// flat methods' (a scripted server answers 503 then 200).

const BASE_OWNER = '0x52908400098527886E0F7030069857D2E4169EE7';

let api: ListeningTestApp;
beforeAll(async () => {
  api = await listenTestApp();
});
afterAll(() => api.close());

it('opportunities.list, wallets.position and plans.deposit read like the domain', async () => {
  const client = createClient({ baseUrl: api.baseUrl, apiKey: testKeys.agent });
  const listed = await client.opportunities.list({ chain: 'base' });
  expectTypeOf(listed).toEqualTypeOf<OpportunityList>();
  expect(listed.opportunities.map((one) => one.chain)).toEqual(
    listed.opportunities.map(() => 'base'),
  );
  expect(listed).toEqual(await client.listOpportunities({ query: { chain: 'base' } }));

  const position = await client.wallets.position(TEST_WALLET);
  expect(position.liquidMicros).toBe('0');

  const plan = await client.plans.deposit({
    strategyId: 'morpho',
    amountMicros: '1000000',
    owner: BASE_OWNER,
  });
  expectTypeOf(plan).toEqualTypeOf<OperationResult<'prepareDepositPlan'>>();
  expect(plan.status).toBe('blocked');
  expect(plan.blockers?.map((one) => one.code)).toContain('venue_not_configured');
});

it('a path parameter and the query together; typed errors', async () => {
  const client = createClient({ baseUrl: api.baseUrl });
  const { opportunities } = await client.opportunities.list();
  const first = opportunities[0];
  if (!first) throw new Error('no opportunity listed');
  const history = await client.opportunities.apyHistory(first.opportunityId, { window: '7d' });
  expect(history.window).toBe('7d');
  await expect(client.opportunities.apyHistory('svcop00')).rejects.toBeInstanceOf(NotFoundError);
});

it('a money call keeps one Idempotency-Key across its retries', async () => {
  const server = await startScriptedServer([
    { status: 503, body: { code: 'INTERNAL_ERROR', message: 'busy' } },
    { status: 200, body: {} },
  ]);
  try {
    const client = createClient({
      baseUrl: server.url,
      validateResponses: false,
      retries: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    await client.plans.deposit(
      { strategyId: 'morpho', amountMicros: '1' },
      { idempotencyKey: 'deposit-1' },
    );
    expect(server.requests.map((one) => [one.url, one.headers['idempotency-key']])).toEqual([
      ['/api/v1/svc/strategies/deposit/plan', 'deposit-1'],
      ['/api/v1/svc/strategies/deposit/plan', 'deposit-1'],
    ]);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      strategyId: 'morpho',
      amountMicros: '1',
    });
  } finally {
    await server.close();
  }
});

it('types: path parameters are positional, a required body is required', () => {
  type Client = ReturnType<typeof createClient>;
  expectTypeOf<Parameters<Client['wallets']['position']>[0]>().toEqualTypeOf<string>();
  expectTypeOf<Parameters<Client['plans']['settleLeg']>>().toMatchTypeOf<
    [string, string, ...unknown[]]
  >();
  // @ts-expect-error: a deposit plan needs its body.
  void (() => createClient({ baseUrl: 'http://x' }).plans.deposit());
});
