import { Connection, PublicKey } from '@solana/web3.js';
import fc from 'fast-check';
import { Reserve } from '@kamino-finance/klend-sdk/dist/@codegen/klend/accounts/Reserve';
import type { SolanaRouterDeployment } from '@yieldrouter/chain-beds';
import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapter, VenueOnChain } from '@yieldrouter/schemas';
import { bedAdapter, kaminoVenue, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';
import { routedVenueRun } from './testing/routedVenueRun';

// Kamino (klend) through our router, on the bed's klend stand-in (at klend's program id): the legs
// run, receipts book what the token balances prove, and the position is valued from the Reserve
// account exactly as klend-sdk decodes it.

let bed: RouterBed;
let router: SolanaRouterDeployment;
let adapter: ChainAdapter;
let venue: VenueOnChain;
beforeAll(async () => {
  bed = await startRouterBed();
  router = bed.router;
  adapter = bedAdapter(bed);
  venue = kaminoVenue(bed);
});
afterAll(() => bed.stop());

/** The reserve's total liquidity (scaled 2^60) and cToken supply, decoded with klend-sdk. */
async function reserveRate(): Promise<{ total: bigint; supply: bigint }> {
  const account = await new Connection(bed.rpcUrl).getAccountInfo(
    new PublicKey(router.kamino.ids.reserve),
  );
  const reserve = Reserve.decode(Buffer.from(account?.data ?? []));
  const big = (value: { toString(): string }) => BigInt(value.toString());
  const total =
    (big(reserve.liquidity.totalAvailableAmount) << 60n) +
    big(reserve.liquidity.borrowedAmountSf) -
    big(reserve.liquidity.accumulatedProtocolFeesSf) -
    big(reserve.liquidity.accumulatedReferrerFeesSf) -
    big(reserve.liquidity.pendingReferrerFeesSf);
  return { total, supply: big(reserve.collateral.mintTotalSupply) };
}

// klend mints floor(asked / rate) cTokens and takes the liquidity they are worth, rounded up
// (klend's Reserve::compute_depositable_amount_and_minted_collateral): once interest has accrued
// that can be less than asked, by less than one cToken's worth. Every honest deposit and
// redemption must still read as confirmed, booking what the owner's token accounts moved (run
// first: the probe's numbers are those of a fresh reserve).
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

describe('kamino: klend through our router', () => {
  it('deposits, accrues in the reserve, values cTokens at (available + borrowed − fees) / supply, and redeems', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 50_000_000n);
    const cUsdc = router.kamino.ids.reserveCollateralMint;

    const deposit = await routedVenueRun(adapter, venue, owner, 'deposit', 20_000_000n);
    expect(deposit.receipt).toMatchObject({ status: 'confirmed' });
    if (deposit.receipt.status !== 'confirmed') throw new Error('not confirmed');
    // klend takes at most the amount asked, and mints at the reserve's rate.
    expect(deposit.receipt.amountMicros).toBeLessThanOrEqual(20_000_000n);
    expect(deposit.receipt.amountMicros).toBe(50_000_000n - bed.usdcBalance(owner.publicKey));
    const shares = deposit.receipt.shares ?? 0n;
    expect(shares).toBe(bed.tokenBalance(cUsdc, owner.publicKey));
    expect(bed.transaction(deposit.txId)?.logMessages).toContain(
      `Program log: svc:${deposit.planId} deposit_to_venue amount=20000000`,
    );

    // A year of interest on the reserve's borrowed USDC.
    const before = await reserveRate();
    router.kamino.accrue(63_072_000n);
    const after = await reserveRate();
    expect(after.total).toBeGreaterThan(before.total);
    const position = await adapter.readPosition(venue, owner.publicKey.toBase58(), shares);
    expect(position).toMatchObject({
      status: 'ok',
      ownerShares: shares,
      sharesValueMicros: (shares * after.total) / (after.supply << 60n),
    });
    if (position.status !== 'ok') throw new Error('no position');
    // Borrowed liquidity counts: the supply vault alone would value the cTokens at about half.
    expect(position.sharesValueMicros).toBeGreaterThan(shares);

    // Withdrawing 10 USDC redeems the cTokens worth at least 10 USDC (rounded up).
    const withdrawal = await routedVenueRun(adapter, venue, owner, 'withdraw', 10_000_000n);
    expect(withdrawal.receipt).toMatchObject({ status: 'confirmed' });
    if (withdrawal.receipt.status !== 'confirmed') throw new Error('not confirmed');
    // The venue pays at least 10 USDC; the router's skim on its yield part goes to the treasury.
    const skim = withdrawal.receipt.skimMicros ?? 0n;
    expect(skim).toBeGreaterThan(0n);
    expect(withdrawal.receipt.amountMicros + skim).toBeGreaterThanOrEqual(10_000_000n);
    expect(bed.usdcBalance(router.treasury)).toBe(skim);
    const burnt = withdrawal.receipt.shares ?? 0n;
    expect(bed.tokenBalance(cUsdc, owner.publicKey)).toBe(shares - burnt);
    expect(bed.transaction(withdrawal.txId)?.logMessages).toContain(
      `Program log: svc:${withdrawal.planId} withdraw_from_venue shares=${burnt}`,
    );
  });

  it('withdraws everything the owner holds when asked for more than it is worth', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 5_000_000n);
    await routedVenueRun(adapter, venue, owner, 'deposit', 5_000_000n);
    const all = await routedVenueRun(adapter, venue, owner, 'withdraw', 9_000_000n);
    expect(all.receipt).toMatchObject({ status: 'confirmed' });
    expect(bed.tokenBalance(router.kamino.ids.reserveCollateralMint, owner.publicKey)).toBe(0n);
  });

  it('is blocked naming every kamino id that is missing', async () => {
    const bare: VenueOnChain = { ...venue, ids: { klendProgram: router.kamino.ids.klendProgram } };
    const build = await adapter.buildDeposit({
      planId: newPlanId(),
      owner: bed.createFundedKeypair().publicKey.toBase58(),
      amountMicros: 1_000_000n,
      target: { kind: 'venue', venue: bare },
    });
    expect(build).toMatchObject({ status: 'blocked' });
    if (build.status !== 'blocked') throw new Error('not blocked');
    expect(build.blockers.map((blocker) => blocker.field)).toEqual([
      'ids.lendingMarket',
      'ids.reserve',
      'ids.reserveLiquiditySupply',
      'ids.reserveCollateralMint',
    ]);
  });

  it('is blocked (never a guessed amount) when the reserve cannot be read for a withdrawal', async () => {
    const wrong: VenueOnChain = {
      ...venue,
      ids: { ...venue.ids, reserveCollateralMint: router.venue.receiptMint },
    };
    const build = await adapter.buildWithdraw({
      planId: newPlanId(),
      owner: bed.createFundedKeypair().publicKey.toBase58(),
      amountMicros: 1_000_000n,
      target: { kind: 'venue', venue: wrong },
    });
    expect(build).toMatchObject({
      status: 'blocked',
      blockers: [
        { code: 'rpc_unavailable', message: expect.stringContaining('reserveCollateralMint') },
      ],
    });
  });
});
