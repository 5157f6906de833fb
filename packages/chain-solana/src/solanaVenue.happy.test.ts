import type { SolanaRouterDeployment } from '@yieldrouter/chain-beds';
import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapter, LegRequest, VenueOnChain } from '@yieldrouter/schemas';
import { bedAdapter, onlyLeg, signLeg, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';
import { routedVenueRun } from './testing/routedVenueRun';
import { TEST_VENUE_ID } from './testing/withTestVenueProtocol';

// The router's generic venue path, through our test venue's layout (a fixture, not a catalog venue).
jest.mock('./venues/solanaVenueProtocols', () =>
  jest.requireActual('./testing/withTestVenueProtocol').withTestVenueProtocol(),
);

// The adapter against our real router program and test venue (C, built by tooling/solana-programs
// and deployed in the bed): the legs it encodes execute, and what it reads back matches the chain.

let bed: RouterBed;
let router: SolanaRouterDeployment;
let adapter: ChainAdapter;
let venue: VenueOnChain;
beforeAll(async () => {
  bed = await startRouterBed();
  router = bed.router;
  adapter = bedAdapter(bed);
  venue = {
    venueId: TEST_VENUE_ID,
    chain: 'solana',
    standard: 'router-adapter',
    ids: router.venue,
  };
});
afterAll(() => bed.stop());

describe('a Solana venue leg through our router program', () => {
  it('deposits, accrues, reads the position at the venue rate, and withdraws', async () => {
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
    // Only our router's own event counts: read against another program id, it is a mismatch.
    const elsewhere = bedAdapter(bed, { programId: router.venue.venueProgram });
    expect(
      await elsewhere.readReceipt({
        txId: deposit.txId,
        planId: deposit.planId,
        owner: owner.publicKey.toBase58(),
        action: 'deposit',
        target: { kind: 'venue', venue },
      }),
    ).toMatchObject({ status: 'mismatch', reason: expect.stringContaining('no router event') });

    // 5 USDC of yield on 20: each receipt token is worth 1.25 USDC micros.
    router.accrue(5_000_000n);
    const position = await adapter.readPosition(venue, owner.publicKey.toBase58(), 20_000_000n);
    expect(position).toMatchObject({
      status: 'ok',
      ownerShares: 20_000_000n,
      sharesValueMicros: 25_000_000n,
    });

    // A later deposit gets fewer shares than USDC; the receipt says both.
    const later = await routedVenueRun(adapter, venue, owner, 'deposit', 10_000_000n);
    expect(later.receipt).toMatchObject({ amountMicros: 10_000_000n, shares: 8_000_000n });

    // 10 of 28 receipts carry ceil(30 × 10 / 28) of the 30 USDC principal: the router pays the
    // 500 bps skim on the yield above it to the treasury, the owner gets the rest.
    const withdrawal = await routedVenueRun(adapter, venue, owner, 'withdraw', 12_500_000n);
    const skim = ((12_500_000n - 10_714_286n) * 500n) / 10_000n;
    expect(withdrawal.receipt).toMatchObject({
      status: 'confirmed',
      amountMicros: 12_500_000n - skim,
      shares: 10_000_000n,
      skimMicros: skim,
    });
    expect(bed.usdcBalance(owner.publicKey)).toBe(32_500_000n - skim);
    expect(bed.usdcBalance(router.treasury)).toBe(skim);
  });

  it('is rejected (preflight) for a deposit the owner cannot fund', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 1_000_000n);
    const request: LegRequest = {
      planId: newPlanId(),
      owner: owner.publicKey.toBase58(),
      amountMicros: 2_000_000n,
      target: { kind: 'venue', venue },
    };
    const build = await adapter.buildDeposit(request);
    const submitted = await adapter.broadcast({ transaction: signLeg(onlyLeg(build), owner) });
    expect(submitted.status).toBe('rejected');
  });
});
