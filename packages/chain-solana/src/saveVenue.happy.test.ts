import { Keypair } from '@solana/web3.js';
import { deploySave } from '@yieldrouter/chain-beds';
import type { SolanaSaveReserve } from '@yieldrouter/chain-beds';
import type { ChainAdapter, VenueOnChain } from '@yieldrouter/schemas';
import { saveRefreshReserveInstruction } from './instructions/saveInstructions';
import { bedAdapter, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';
import { routedVenueRun } from './testing/routedVenueRun';
import { sendOnBed } from './testing/sendOnBed';
import { cTokenValue, decodeSaveReserve, saveCollateralRate } from './venueState/saveReserveState';
import { saveReserveAccounts } from './testing/saveReserveAccounts';

// Save through our router on the bed: the stand-in at Save's mainnet program id, its USDC reserve
// registered with the router as a Save adapter; the legs the adapter builds run there.
let bed: RouterBed;
let save: SolanaSaveReserve;
let adapter: ChainAdapter;
let venue: VenueOnChain;
beforeAll(async () => {
  bed = await startRouterBed();
  save = deploySave(bed, { router: bed.router });
  adapter = bedAdapter(bed);
  venue = { venueId: 'save', chain: 'solana', standard: 'router-adapter', ids: save.ids };
});
afterAll(() => bed.stop());

function rate(): bigint {
  const account = bed.svm.getAccount(save.reserve as Parameters<RouterBed['svm']['getAccount']>[0]);
  if (!account.exists) throw new Error('no reserve');
  return saveCollateralRate(decodeSaveReserve(account.data));
}

/** Anyone may refresh a reserve: the bed's authority cranks it, as keepers do on mainnet. */
function refresh(): void {
  const instruction = saveRefreshReserveInstruction(saveReserveAccounts(save));
  const run = sendOnBed(bed, [instruction], bed.mintAuthority);
  if (!run.ok) throw new Error(run.error);
}

describe('Save through our router program', () => {
  it('deposits, accrues on refresh, values the position at the reserve’s rate, and redeems', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 50_000_000n);

    const deposit = await routedVenueRun(adapter, venue, owner, 'deposit', 20_000_000n);
    const minted = bed.tokenBalance(save.collateralMint, owner.publicKey);
    expect(deposit.receipt).toMatchObject({
      status: 'confirmed',
      amountMicros: 20_000_000n,
      shares: minted,
    });
    expect(bed.transaction(deposit.txId)?.logMessages).toContain(
      `Program log: svc:${deposit.planId} deposit_to_venue amount=20000000`,
    );

    // A tenth of a year at 10 % on 300 borrowed, 80 % of it to suppliers: about +0.23 %.
    save.advanceSlots(6_307_200n);
    refresh();
    const accrued = rate();
    const position = await adapter.readPosition(venue, owner.publicKey.toBase58(), minted);
    expect(position).toMatchObject({
      status: 'ok',
      ownerShares: minted,
      sharesValueMicros: cTokenValue(minted, accrued),
    });
    if (position.status !== 'ok') throw new Error('unreachable');
    expect(position.sharesValueMicros).toBeGreaterThan(20_040_000n);

    // Withdraw 10 USDC: cTokens redeemed rounded up (after a refresh in the same transaction).
    const usdcBefore = bed.usdcBalance(owner.publicKey);
    const treasuryBefore = bed.usdcBalance(bed.router.treasury);
    const withdraw = await routedVenueRun(adapter, venue, owner, 'withdraw', 10_000_000n);
    const burnt = minted - bed.tokenBalance(save.collateralMint, owner.publicKey);
    expect(bed.transaction(withdraw.txId)?.logMessages).toContain(
      `Program log: svc:${withdraw.planId} withdraw_from_venue shares=${burnt}`,
    );
    // What the venue paid: to the owner, and the router's yield skim to the treasury.
    const skim = bed.usdcBalance(bed.router.treasury) - treasuryBefore;
    expect(skim).toBeGreaterThan(0n);
    const paid = bed.usdcBalance(owner.publicKey) - usdcBefore + skim;
    expect(paid).toBeGreaterThanOrEqual(10_000_000n);
    expect(paid).toBe(cTokenValue(burnt, rate()));
    expect(withdraw.receipt).toMatchObject({
      status: 'confirmed',
      amountMicros: paid - skim,
      skimMicros: skim,
      shares: burnt,
    });
  });

  it('a venue missing an id it needs is blocked naming it, never guessed', async () => {
    const { pythOracle: _dropped, ...ids } = save.ids;
    const build = await adapter.buildDeposit({
      planId: 'plan_00112233445566778899aabbccddeeff',
      owner: bed.createFundedKeypair().publicKey.toBase58(),
      amountMicros: 1_000_000n,
      target: { kind: 'venue', venue: { ...venue, ids } },
    });
    expect(build).toMatchObject({
      status: 'blocked',
      blockers: [expect.objectContaining({ field: 'ids.pythOracle' })],
    });
  });

  it.each(['pythOracle', 'switchboardOracle', 'reserveCollateralMint'])(
    'a withdrawal with a configured %s that is not the reserve’s is blocked naming it',
    async (name) => {
      const owner = bed.createFundedKeypair();
      bed.mintUsdc(owner.publicKey, 2_000_000n);
      await routedVenueRun(adapter, venue, owner, 'deposit', 2_000_000n);
      const ids = { ...save.ids, [name]: Keypair.generate().publicKey.toBase58() };
      const build = await adapter.buildWithdraw({
        planId: 'plan_00112233445566778899aabbccddeeff',
        owner: owner.publicKey.toBase58(),
        amountMicros: 1_000_000n,
        target: { kind: 'venue', venue: { ...venue, ids } },
      });
      expect(build).toMatchObject({
        status: 'blocked',
        blockers: [
          expect.objectContaining({
            code: 'rpc_unavailable',
            message: expect.stringContaining(`configured ids.${name} is not the reserve's`),
          }),
        ],
      });
    },
  );
});
