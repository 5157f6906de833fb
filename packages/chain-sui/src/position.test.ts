import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import type { VenueOnChain } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import { suiConfig, USDC } from './testFixtures';

// A Sui position is valued from the protocol's own state, never receipts counted 1:1.
const OWNER = `0x${'0a'.repeat(32)}`;

let fake: SuiFake;
beforeAll(async () => {
  fake = await startSuiFake();
});
afterAll(() => fake.stop());

const venue = (venueId: string, ids: VenueOnChain['ids']): VenueOnChain => ({
  venueId,
  chain: 'sui',
  standard: 'router-adapter',
  ids,
});

it("values Suilend CTokens at the reserve's ctoken ratio, not one micro each", async () => {
  const suilend = fake.addSuilend({ usdc: USDC, availableAmount: 1_000_000_000_000n });
  suilend.accrue(52_345_678_901n);
  fake.setBalance(OWNER, suilend.ids.receiptCoinType, 10_000_000n);
  const adapter = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));

  const reading = await adapter.readPosition(venue('suilend', suilend.ids), OWNER, 8_000_000n);

  expect(reading).toMatchObject({
    status: 'ok',
    ownerShares: 10_000_000n,
    sharesValueMicros: suilend.redeemValue(8_000_000n),
    ownerValueMicros: suilend.redeemValue(10_000_000n),
  });
  expect(suilend.redeemValue(8_000_000n)).toBe(8_418_765n);
});

it("values Scallop MarketCoins at the balance sheet's rate", async () => {
  const scallop = fake.addScallop({ usdc: USDC, cash: 1_000_000_000_000n });
  scallop.accrue(41_000_000_777n);
  fake.setBalance(OWNER, scallop.ids.receiptCoinType, 3_000_000n);
  const adapter = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));

  const reading = await adapter.readPosition(venue('scallop', scallop.ids), OWNER, 3_000_000n);

  expect(reading).toMatchObject({ status: 'ok', sharesValueMicros: 3_123_000n });
  expect(scallop.redeemValue(3_000_000n)).toBe(3_123_000n);
});

it('is unavailable, naming the id, for a venue missing one; never a 1:1 guess', async () => {
  const adapter = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));
  const reading = await adapter.readPosition(
    venue('scallop', { receiptCoinType: `0x${'75'.repeat(32)}::reserve::MarketCoin<${USDC}>` }),
    OWNER,
    1n,
  );
  expect(reading).toMatchObject({ status: 'unavailable', reason: 'no_standard_reader' });
  if (reading.status === 'unavailable') expect(reading.detail).toContain('ids.market');
});
