import { deployJupiterLend } from '@yieldrouter/chain-beds';
import type { SolanaJupiterLend } from '@yieldrouter/chain-beds';
import type { ChainAdapter, VenueOnChain } from '@yieldrouter/schemas';
import { bedAdapter, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';
import { routedVenueRun } from './testing/routedVenueRun';
import { jlTokenValue } from './venueState/jupiterLendState';

// Jupiter Lend Earn through our router on the bed: the stand-in at the lending program's mainnet
// id, registered with the router as a Jupiter Lend adapter; the legs the adapter builds run there.
let bed: RouterBed;
let jupiter: SolanaJupiterLend;
let adapter: ChainAdapter;
let venue: VenueOnChain;
beforeAll(async () => {
  bed = await startRouterBed();
  jupiter = deployJupiterLend(bed, { router: bed.router });
  adapter = bedAdapter(bed);
  venue = {
    venueId: 'jupiter-lend',
    chain: 'solana',
    standard: 'router-adapter',
    ids: jupiter.ids,
  };
});
afterAll(() => bed.stop());

describe('Jupiter Lend through our router program', () => {
  it('deposits, accrues, values the position at the program’s price, and redeems', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 50_000_000n);

    const deposit = await routedVenueRun(adapter, venue, owner, 'deposit', 20_000_000n);
    expect(deposit.receipt).toMatchObject({
      status: 'confirmed',
      amountMicros: 20_000_000n,
      shares: 20_000_000n,
    });
    expect(bed.transaction(deposit.txId)?.logMessages).toContain(
      `Program log: svc:${deposit.planId} deposit_to_venue amount=20000000`,
    );
    expect(bed.tokenBalance(jupiter.fTokenMint, owner.publicKey)).toBe(20_000_000n);

    // 10.2 USDC of interest on the 1,020 the vault holds: +1 % on the liquidity layer.
    jupiter.accrue(10_200_000n);
    const position = await adapter.readPosition(venue, owner.publicKey.toBase58(), 20_000_000n);
    expect(position).toMatchObject({
      status: 'ok',
      ownerShares: 20_000_000n,
      sharesValueMicros: 20_200_000n,
      ownerValueMicros: 20_200_000n,
    });

    // Withdraw 10 USDC: jlUSDC redeemed rounded up, at least 10 USDC paid, both in the receipt.
    const usdcBefore = bed.usdcBalance(owner.publicKey);
    const treasuryBefore = bed.usdcBalance(bed.router.treasury);
    const withdraw = await routedVenueRun(adapter, venue, owner, 'withdraw', 10_000_000n);
    const shares = 9_900_991n; // ceil(10 / 1.01)
    expect(bed.transaction(withdraw.txId)?.logMessages).toContain(
      `Program log: svc:${withdraw.planId} withdraw_from_venue shares=${shares}`,
    );
    // What the venue paid: to the owner, and the router's yield skim to the treasury.
    const skim = bed.usdcBalance(bed.router.treasury) - treasuryBefore;
    expect(skim).toBeGreaterThan(0n);
    const paid = bed.usdcBalance(owner.publicKey) - usdcBefore + skim;
    expect(paid).toBe(jlTokenValue(shares, 1_010_000_000_000n));
    expect(paid).toBeGreaterThanOrEqual(10_000_000n);
    expect(withdraw.receipt).toMatchObject({
      status: 'confirmed',
      amountMicros: paid - skim,
      skimMicros: skim,
      shares,
    });
    expect(bed.tokenBalance(jupiter.fTokenMint, owner.publicKey)).toBe(20_000_000n - shares);
  });

  it('a withdrawal by an owner holding no jlUSDC is blocked, naming the amount', async () => {
    const owner = bed.createFundedKeypair();
    const build = await adapter.buildWithdraw({
      planId: 'plan_00112233445566778899aabbccddeeff',
      owner: owner.publicKey.toBase58(),
      amountMicros: 1_000_000n,
      target: { kind: 'venue', venue },
    });
    expect(build).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'nothing_staked', field: 'amountMicros' }],
    });
  });

  it('a venue missing an id it needs is blocked naming it, never guessed', async () => {
    const { claimAccount: _dropped, ...ids } = jupiter.ids;
    const build = await adapter.buildDeposit({
      planId: 'plan_00112233445566778899aabbccddeeff',
      owner: bed.createFundedKeypair().publicKey.toBase58(),
      amountMicros: 1_000_000n,
      target: { kind: 'venue', venue: { ...venue, ids } },
    });
    expect(build).toMatchObject({
      status: 'blocked',
      blockers: [expect.objectContaining({ field: 'ids.claimAccount' })],
    });
  });
});
