import { DepositSettledEvent, PositionUpdatedEvent } from '@yieldrouter/schemas';
import type { VenueConfig } from '../venues/venueConfig';
import { prepareRoute } from '../wallet/prepareRoute';
import { settleLeg } from '../wallet/settleLeg';
import { fakeBase58, fakeChain } from '../wallet/testing/fakeChain';
import { startWebhookFixture } from './testing/webhookFixture';
import type { WebhookFixture } from './testing/webhookFixture';

// From a settled leg to a verified delivery: the engine writes the events with the ledger change,
// the relay fans them out, the delivery job signs and sends them.

const venues: VenueConfig = { ids: {}, apyPools: {}, apyMaxAgeMs: 3_600_000, apyMeanMinSamples: 3 };
let f: WebhookFixture;
beforeAll(async () => {
  f = await startWebhookFixture(new Date());
});
afterAll(() => f.close());

it('a settled route leg reaches the subscriber as deposit.settled then position.updated', async () => {
  const chain = fakeChain();
  const wallet = fakeBase58();
  const other = fakeBase58();
  await f.subscribe({ wallets: [wallet], eventTypes: ['deposit.settled', 'position.updated'] });
  const context = {
    db: f.test.db,
    adapters: chain.adapters,
    venues,
    opportunities: [],
    autoYieldVenueId: null,
  };
  const settle = async (address: string) => {
    const plan = await prepareRoute({
      ...context,
      address,
      input: { amountMicros: 2_500_000n, token: 'USDC', stake: false, chain: 'solana' },
      now: new Date(),
    });
    const txId = chain.execute({ planId: plan.planId as string, amountMicros: 2_500_000n });
    await settleLeg({
      ...context,
      planId: plan.planId as string,
      legIndex: 0,
      txId,
      now: new Date(),
    });
    return { planId: plan.planId as string, txId };
  };
  const mine = await settle(wallet);
  await settle(other); // another wallet's events never reach this subscription

  expect(await f.relay()).toBe(4);
  expect(await f.deliver()).toMatchObject({ delivered: 2, retrying: 0, failed: 0 });
  const [deposit, position] = f.receiver.accepted();
  expect([deposit?.verified, position?.verified]).toEqual([true, true]);
  expect(DepositSettledEvent.parse(deposit?.body).data).toEqual({
    planId: mine.planId,
    legIndex: 0,
    chain: 'solana',
    wallet,
    txId: mine.txId,
    opportunityId: null,
    venueId: null,
    quotedAmountMicros: '2500000',
    amountMicros: '2500000',
  });
  expect(PositionUpdatedEvent.parse(position?.body).data).toMatchObject({
    planId: mine.planId,
    wallet,
    cause: 'settled',
  });
  expect(f.receiver.deliveries).toHaveLength(2);
});
