import { TEST_WALLET, testKeys } from '@yieldrouter/api/testing/startTestApp';
import { createClient } from './createClient';
import { PermissionError, ValidationError } from './errors/httpErrors';
import type { ListeningTestApp } from './testing/listenTestApp';
import { listenTestApp } from './testing/listenTestApp';

// The autopilot through the SDK (the fourth face): typed methods validated by the manifest's
// schemas, the owner's writes with an idempotency key, typed refusals.

let api: ListeningTestApp;
beforeAll(async () => {
  api = await listenTestApp();
});
afterAll(() => api.close());

const params = { address: TEST_WALLET };
const client = (apiKey: string) => createClient({ baseUrl: api.baseUrl, apiKey });

it('enable, state, preview, decide, tick, history and disable', async () => {
  const owner = client(testKeys.owner);
  const agent = client(testKeys.agent);
  expect(await agent.getAutopilot({ params })).toMatchObject({ policy: null });
  const enabled = await owner.enableAutopilot({
    params,
    body: { chain: 'sui', cadence: 'weekly' },
    idempotencyKey: 'sdk-enable',
  });
  expect(enabled.policy).toMatchObject({ chain: 'sui', enabled: true, cadence: 'weekly' });
  // No 30-day means are stored here: nothing can rank, so the rule is blocked and says why.
  const decision = await agent.decideAutopilot({ params, body: {} });
  expect(decision).toMatchObject({
    outcome: 'blocked',
    reason: 'no_eligible_candidate',
    withinChainOnly: true,
    crossChainRebalance: false,
    bridge: null,
  });
  expect(decision.candidates.every((entry) => entry.verdict !== 'eligible')).toBe(true);
  expect(
    (await agent.previewAutopilot({ params, body: { rebalanceMinDeltaBps: 0 } })).policy,
  ).toMatchObject({ rebalanceMinDeltaBps: 0 });
  const tick = await agent.tickAutopilot({ params, body: {} });
  expect(tick).toMatchObject({ replayed: false, decision: { kind: 'tick' } });
  expect((await owner.tickAutopilot({ params, body: {} })).replayed).toBe(true);
  const history = await agent.getAutopilotHistory({ params, query: { limit: 2 } });
  expect(history.decisions.map((entry) => entry.kind)).toEqual(['tick', 'preview']);
  expect(history.nextCursor).not.toBeNull();
  expect((await owner.disableAutopilot({ params, body: {} })).policy?.enabled).toBe(false);
});

it('refusals are typed: an agent enabling (403), a Map chain (400 naming body.chain)', async () => {
  const denied = await client(testKeys.agent)
    .enableAutopilot({ params, body: { chain: 'sui' } })
    .catch((thrown: unknown) => thrown);
  expect(denied).toBeInstanceOf(PermissionError);
  const invalid = await client(testKeys.owner)
    .enableAutopilot({ params, body: { chain: 'base' as 'sui' } })
    .catch((thrown: unknown) => thrown);
  expect(invalid).toBeInstanceOf(ValidationError);
  expect(invalid).toMatchObject({ status: 400, field: 'body.chain' });
});
