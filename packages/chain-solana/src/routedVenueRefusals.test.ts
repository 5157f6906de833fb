import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import type { AccountMeta, Keypair } from '@solana/web3.js';
import { deployJupiterLend, deploySave } from '@yieldrouter/chain-beds';
import type { SolanaJupiterLend, SolanaSaveReserve } from '@yieldrouter/chain-beds';
import { newPlanId } from '@yieldrouter/schemas';
import { jupiterLendDepositInstruction } from './instructions/jupiterLendInstructions';
import { planMemoInstruction } from './instructions/planMemo';
import { depositToVenueInstruction } from './instructions/routerInstructions';
import {
  saveDepositReserveLiquidityInstruction,
  saveRefreshReserveInstruction,
} from './instructions/saveInstructions';
import { startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';
import { sendOnBed } from './testing/sendOnBed';
import { associatedTokenAccount } from './tokenAccounts';
import { saveReserveAccounts } from './testing/saveReserveAccounts';

// The router refuses, with its own errors, a Jupiter Lend or Save deposit whose protocol accounts
// are not the registered market's or not the owner's (docs/venues/solana.md: 19 foreign reserve,
// 13 another owner's token account, 20 wrong accounts).
let bed: RouterBed;
let jupiter: SolanaJupiterLend;
let save: SolanaSaveReserve;
beforeAll(async () => {
  bed = await startRouterBed();
  jupiter = deployJupiterLend(bed, { router: bed.router });
  save = deploySave(bed, { router: bed.router });
});
afterAll(() => bed.stop());

const key = (value: string) => new PublicKey(value);
const usdc = () => key(bed.usdcMint);

function jupiterAccounts(owner: PublicKey): AccountMeta[] {
  const ids = Object.fromEntries(Object.entries(jupiter.ids).map(([name, id]) => [name, key(id)]));
  const market = {
    lendingProgram: ids['lendingProgram'] as PublicKey,
    liquidityProgram: ids['liquidityProgram'] as PublicKey,
    mint: usdc(),
    fTokenMint: ids['fTokenMint'] as PublicKey,
    lending: ids['lending'] as PublicKey,
    lendingAdmin: ids['lendingAdmin'] as PublicKey,
    supplyTokenReservesLiquidity: ids['supplyTokenReservesLiquidity'] as PublicKey,
    lendingSupplyPositionOnLiquidity: ids['lendingSupplyPositionOnLiquidity'] as PublicKey,
    rateModel: ids['rateModel'] as PublicKey,
    vault: ids['vault'] as PublicKey,
    liquidity: ids['liquidity'] as PublicKey,
    rewardsRateModel: ids['rewardsRateModel'] as PublicKey,
    claimAccount: ids['claimAccount'] as PublicKey,
  };
  return jupiterLendDepositInstruction(
    market,
    {
      signer: owner,
      ownerAsset: associatedTokenAccount(owner, usdc()),
      ownerFToken: associatedTokenAccount(owner, market.fTokenMint),
    },
    1_000_000n,
  ).keys;
}

const saveReserve = () => saveReserveAccounts(save);

function saveAccounts(owner: PublicKey): AccountMeta[] {
  return saveDepositReserveLiquidityInstruction(
    saveReserve(),
    {
      owner,
      ownerLiquidity: associatedTokenAccount(owner, usdc()),
      ownerCollateral: associatedTokenAccount(owner, key(save.collateralMint)),
    },
    1_000_000n,
  ).keys;
}

interface Venue {
  readonly name: string;
  readonly adapter: () => PublicKey;
  readonly venueProgram: () => PublicKey;
  readonly receiptMint: () => PublicKey;
  readonly accounts: (owner: PublicKey) => AccountMeta[];
  /** Index of the registered account and of the owner's USDC account in the protocol's list. */
  readonly bound: number;
  readonly ownerUsdc: number;
  readonly setup: () => ReturnType<typeof saveRefreshReserveInstruction>[];
}

const VENUES: Venue[] = [
  {
    name: 'Jupiter Lend',
    adapter: () => key(jupiter.lending),
    venueProgram: () => key(jupiter.lendingProgram),
    receiptMint: () => key(jupiter.fTokenMint),
    accounts: jupiterAccounts,
    bound: 5,
    ownerUsdc: 1,
    setup: () => [],
  },
  {
    name: 'Save',
    adapter: () => key(save.reserve),
    venueProgram: () => key(save.program),
    receiptMint: () => key(save.collateralMint),
    accounts: saveAccounts,
    bound: 2,
    ownerUsdc: 0,
    setup: () => [saveRefreshReserveInstruction(saveReserve())],
  },
];

function deposit(venue: Venue, owner: Keypair, accounts: AccountMeta[]) {
  const planId = newPlanId();
  return sendOnBed(
    bed,
    [
      createAssociatedTokenAccountIdempotentInstruction(
        owner.publicKey,
        associatedTokenAccount(owner.publicKey, venue.receiptMint()),
        owner.publicKey,
        venue.receiptMint(),
      ),
      ...venue.setup(),
      depositToVenueInstruction(
        {
          programId: key(bed.router.programId),
          owner: owner.publicKey,
          yieldRouter: key(bed.router.yieldRouter),
          adapterRegistry: key(bed.router.adapterRegistry),
          adapter: venue.adapter(),
          venueProgram: venue.venueProgram(),
          treasuryUsdc: key(bed.router.treasuryUsdc),
          venueAccounts: accounts,
        },
        { amountMicros: 1_000_000n, planId },
      ),
      planMemoInstruction(planId),
    ],
    owner,
  );
}

const replaced = (accounts: AccountMeta[], index: number, pubkey: PublicKey) =>
  accounts.map((meta, i) => (i === index ? { ...meta, pubkey } : meta));

describe.each(VENUES)('the router refuses a bad $name deposit', (venue) => {
  let owner: Keypair;
  beforeEach(() => {
    owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 5_000_000n);
  });

  it('lands when the accounts are right (the baseline the refusals change one thing of)', () => {
    expect(deposit(venue, owner, venue.accounts(owner.publicKey)).error).toBeUndefined();
  });

  it('foreign reserve: another protocol account where the registered one goes (19)', () => {
    const foreign = venue.name === 'Save' ? key(jupiter.lending) : key(save.reserve);
    const run = deposit(
      venue,
      owner,
      replaced(venue.accounts(owner.publicKey), venue.bound, foreign),
    );
    expect(run.error).toContain('"Custom":19');
  });

  it("another owner's USDC account in the protocol's list (13)", () => {
    const victim = bed.createFundedKeypair();
    bed.mintUsdc(victim.publicKey, 5_000_000n);
    const run = deposit(
      venue,
      owner,
      replaced(
        venue.accounts(owner.publicKey),
        venue.ownerUsdc,
        associatedTokenAccount(victim.publicKey, usdc()),
      ),
    );
    expect(run.error).toContain('"Custom":13');
    expect(bed.usdcBalance(victim.publicKey)).toBe(5_000_000n);
  });

  it('wrong accounts: one missing (20)', () => {
    const run = deposit(venue, owner, venue.accounts(owner.publicKey).slice(0, -1));
    expect(run.error).toContain('"Custom":20');
    expect(bed.usdcBalance(owner.publicKey)).toBe(5_000_000n);
  });
});
