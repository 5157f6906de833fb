import { Connection, PublicKey } from '@solana/web3.js';
import fc from 'fast-check';
import type { ChainAdapter, VenueOnChain } from '@yieldrouter/schemas';
import { bedAdapter, kaminoVenue, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';
import { routedVenueRun } from './testing/routedVenueRun';

// klend mints floor(asked / rate) cTokens and takes the liquidity they are worth, rounded up
// (klend's Reserve::compute_depositable_amount_and_minted_collateral): once interest has accrued
// that can be less than asked, by less than one cToken's worth. Every honest deposit and
// redemption must still read as confirmed, booking what the owner's token accounts moved.

let bed: RouterBed;
let adapter: ChainAdapter;
let venue: VenueOnChain;
beforeAll(async () => {
  bed = await startRouterBed();
  adapter = bedAdapter(bed);
  venue = kaminoVenue(bed);
});
afterAll(() => bed.stop());

/** The value of one cToken at the reserve's rate, in micros, rounded up. */
function oneCTokenMicros(): bigint {
  const { totalLiquiditySf, collateralSupply } = bed.router.kamino.rate();
  const unit = collateralSupply << 60n;
  return (totalLiquiditySf + unit - 1n) / unit;
}

/** A deposit of `asked` by a fresh owner: the receipt books what left the owner, no more. */
async function depositSettles(asked: bigint) {
  const owner = bed.createFundedKeypair();
  bed.mintUsdc(owner.publicKey, asked);
  const cToken = oneCTokenMicros();
  const deposit = await routedVenueRun(adapter, venue, owner, 'deposit', asked);
  const spent = asked - bed.usdcBalance(owner.publicKey);
  expect(deposit.receipt).toMatchObject({ status: 'confirmed', amountMicros: spent });
  if (deposit.receipt.status !== 'confirmed') throw new Error('not confirmed');
  expect(deposit.receipt.shares).toBe(
    bed.tokenBalance(bed.router.kamino.ids.reserveCollateralMint, owner.publicKey),
  );
  // klend keeps back less than one cToken's worth, never takes more than asked.
  expect(spent).toBeLessThanOrEqual(asked);
  expect(asked - spent).toBeLessThan(cToken);
  return { owner, spent };
}

/** The router's lifetime USDC routed into venues (u64 at byte 56 of its PDA). */
async function routedIntoVenues(): Promise<bigint> {
  const account = await new Connection(bed.rpcUrl).getAccountInfo(
    new PublicKey(bed.router.yieldRouter),
  );
  return Buffer.from(account?.data ?? []).readBigUInt64LE(56);
}

describe('kamino deposits after interest accrued (klend rounding)', () => {
  it('the probe: 1,000,112 after five years of interest settles as the 1,000,111 taken', async () => {
    bed.router.kamino.accrue(63_072_000n * 5n);
    const routed = await routedIntoVenues();
    const { spent } = await depositSettles(1_000_112n);
    expect(spent).toBe(1_000_111n);
    // The router counts what moved, not the argument.
    expect((await routedIntoVenues()) - routed).toBe(1_000_111n);
  });

  it('every honest deposit and redemption settles as what the token accounts moved', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1_000_000n, max: 50_000_000n }),
        fc.bigInt({ min: 0n, max: 63_072_000n }),
        fc.integer({ min: 1, max: 100 }),
        async (asked, slots, percent) => {
          if (slots > 0n) bed.router.kamino.accrue(slots);
          const { owner, spent } = await depositSettles(asked);
          const before = bed.usdcBalance(owner.publicKey);
          const withdrawal = await routedVenueRun(
            adapter,
            venue,
            owner,
            'withdraw',
            (spent * BigInt(percent)) / 100n || 1n,
          );
          expect(withdrawal.receipt).toMatchObject({
            status: 'confirmed',
            amountMicros: bed.usdcBalance(owner.publicKey) - before,
          });
        },
      ),
      { numRuns: 25 },
    );
  });
});
