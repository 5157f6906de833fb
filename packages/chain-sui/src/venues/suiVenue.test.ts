import { Transaction } from '@mysten/sui/transactions';
import { normalizeStructTag } from '@mysten/sui/utils';
import { planIdToBytes } from '@yieldrouter/schemas';
import { createSuiAdapter } from '../adapter';
import { NAVI, PACKAGE_ID, PLAN_ID, SCALLOP, SUILEND, suiConfig, USDC } from '../testFixtures';
import { receiptsForAmount, receiptValue } from './readVenueState';
import { resolveSuiVenue } from './suiVenue';

const OWNER = `0x${'0c'.repeat(32)}`;
const usdc = normalizeStructTag(USDC);
const fields = (venue: typeof SUILEND, ids: Record<string, string | undefined>) =>
  resolveSuiVenue({ ...venue, ids: { ...venue.ids, ...ids } }, usdc);

describe('resolveSuiVenue', () => {
  it('names every missing or malformed id of the venue', () => {
    const outcome = fields(SCALLOP, { market: undefined, version: 'nope', package: undefined });
    expect(outcome.status === 'blocked' && outcome.blockers.map((b) => [b.code, b.field])).toEqual([
      ['venue_not_configured', 'ids.package'],
      ['venue_not_configured', 'ids.version'],
      ['venue_not_configured', 'ids.market'],
    ]);
  });

  it("blocks a receipt type that is not the protocol's receipt for USDC", () => {
    const other = `0x${'75'.repeat(32)}::reserve::MarketCoin<0x2::sui::SUI>`;
    expect(fields(SCALLOP, { receiptCoinType: other })).toMatchObject({
      status: 'blocked',
      blockers: [{ field: 'ids.receiptCoinType' }],
    });
    const wrongMarket = SUILEND.ids.receiptCoinType?.replace('MAIN_POOL', 'OTHER_POOL');
    expect(fields(SUILEND, { receiptCoinType: wrongMarket })).toMatchObject({
      status: 'blocked',
      blockers: [{ field: 'ids.receiptCoinType' }],
    });
  });

  it('is no venue for an id this adapter does not reach', () => {
    expect(resolveSuiVenue({ ...NAVI, venueId: 'kamino' }, usdc)).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'venue_not_configured', field: 'venueId' }],
    });
  });
});

describe('venue legs (unresolved JSON)', () => {
  const adapter = createSuiAdapter(suiConfig());

  it.each([
    ['suilend', SUILEND, 'lending_market::deposit_liquidity_and_mint_ctokens'],
    ['navi', NAVI, 'incentive_v3::entry_deposit'],
    ['scallop', SCALLOP, 'mint::mint'],
  ])(
    "%s: the protocol's call, the plan id as an input, never our router",
    async (_id, venue, call) => {
      const build = await adapter.buildDeposit({
        planId: PLAN_ID,
        owner: OWNER,
        amountMicros: 3_000_000n,
        target: { kind: 'venue', venue },
      });
      if (
        build.status !== 'prepared' ||
        build.legs[0]?.payload.encoding !== 'sui-transaction-json'
      ) {
        throw new Error(JSON.stringify(build));
      }
      const data = Transaction.from(build.legs[0].payload.transaction).getData();
      const calls = data.commands.flatMap((command) =>
        command.MoveCall ? [`${command.MoveCall.module}::${command.MoveCall.function}`] : [],
      );
      expect(calls).toEqual([call]);
      expect(JSON.stringify(data)).not.toContain(PACKAGE_ID.slice(2));
      const plan = [...planIdToBytes(PLAN_ID)];
      expect(
        data.inputs.some(
          (input) =>
            input.Pure !== undefined &&
            Buffer.from(input.Pure.bytes, 'base64').subarray(1).equals(Buffer.from(plan)),
        ),
      ).toBe(true);
      expect(build.legs[0].summary).toContain(`${venue.venueId} on Sui`);
    },
  );

  it('a withdrawal that must read the rate is blocked when it cannot (rpc_unavailable)', async () => {
    const build = await adapter.buildWithdraw({
      planId: PLAN_ID,
      owner: OWNER,
      amountMicros: 3_000_000n,
      target: { kind: 'venue', venue: SUILEND },
    });
    expect(build).toMatchObject({ status: 'blocked', blockers: [{ code: 'rpc_unavailable' }] });
  });
});

describe('receipt rounding', () => {
  const rate = { underlying: 1_052_345_678_901n, receipts: 1_000_000_000_000n };
  it('burns the fewest receipts that redeem for at least the amount asked', () => {
    for (const amount of [1n, 999_999n, 15_000_000n, 123_456_789n]) {
      const receipts = receiptsForAmount(amount, rate);
      expect(receiptValue(receipts, rate)).toBeGreaterThanOrEqual(amount);
      expect(receiptValue(receipts - 1n, rate)).toBeLessThan(amount);
    }
  });
});
