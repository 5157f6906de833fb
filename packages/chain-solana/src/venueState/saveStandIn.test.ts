import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { LendingMarketLayout } from '@solendprotocol/solend-sdk/state/lendingMarket';
import { parseReserve } from '@solendprotocol/solend-sdk/state/reserve';
import { deploySave, startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed, SolanaSaveReserve } from '@yieldrouter/chain-beds';
import {
  saveDepositReserveLiquidityInstruction,
  saveLendingMarketAuthority,
  saveRedeemReserveCollateralInstruction,
  saveRefreshReserveInstruction,
} from '../instructions/saveInstructions';
import type { SaveOwnerAccounts, SaveReserveAccounts } from '../instructions/saveInstructions';
import { sendOnBed } from '../testing/sendOnBed';
import { associatedTokenAccount } from '../tokenAccounts';
import {
  cTokenValue,
  cTokensForDeposit,
  cTokensForUsdc,
  decodeSaveReserve,
  saveCollateralRate,
} from './saveReserveState';
import { saveReserveAccounts } from '../testing/saveReserveAccounts';

// The bed's Save stand-in, driven with our instruction builders and read with both our decoder
// and the SDK's own layouts.
let bed: SolanaBed;
let save: SolanaSaveReserve;
beforeAll(async () => {
  bed = await startSolanaBed();
  save = deploySave(bed);
});
afterAll(() => bed.stop());

const reserveAccounts = (): SaveReserveAccounts => saveReserveAccounts(save);

function ownerAccounts(owner: Keypair): SaveOwnerAccounts {
  return {
    owner: owner.publicKey,
    ownerLiquidity: associatedTokenAccount(owner.publicKey, new PublicKey(bed.usdcMint)),
    ownerCollateral: associatedTokenAccount(owner.publicKey, new PublicKey(save.collateralMint)),
  };
}

function data(address: string): Buffer {
  const account = bed.svm.getAccount(address as Parameters<SolanaBed['svm']['getAccount']>[0]);
  if (!account.exists) throw new Error(`no account at ${address}`);
  return Buffer.from(account.data);
}
const reserve = () => decodeSaveReserve(data(save.reserve));
const cTokens = (owner: Keypair) => bed.tokenBalance(save.collateralMint, owner.publicKey);
const refresh = () => saveRefreshReserveInstruction(reserveAccounts());

function deposit(owner: Keypair, amount: bigint, fresh = true) {
  const accounts = ownerAccounts(owner);
  return sendOnBed(
    bed,
    [
      createAssociatedTokenAccountIdempotentInstruction(
        owner.publicKey,
        accounts.ownerCollateral,
        owner.publicKey,
        new PublicKey(save.collateralMint),
      ),
      ...(fresh ? [refresh()] : []),
      saveDepositReserveLiquidityInstruction(reserveAccounts(), accounts, amount),
    ],
    owner,
  );
}

describe('the Save stand-in', () => {
  it('lays out its Reserve and LendingMarket as the SDK decodes them', () => {
    const info = { data: data(save.reserve), executable: false, lamports: 1 };
    const theirs = parseReserve(new PublicKey(save.reserve) as never, info as never).info;
    const ours = reserve();
    expect(theirs.lendingMarket.toBase58()).toBe(save.lendingMarket);
    expect(theirs.liquidity.supplyPubkey.toBase58()).toBe(save.liquiditySupply);
    expect(theirs.liquidity.mintPubkey.toBase58()).toBe(bed.usdcMint);
    expect(theirs.collateral.mintPubkey.toBase58()).toBe(save.collateralMint);
    expect(theirs.liquidity.pythOracle.toBase58()).toBe(save.pythOracle);
    expect(theirs.liquidity.availableAmount.toString()).toBe(ours.availableAmount.toString());
    expect(theirs.liquidity.borrowedAmountWads.toString()).toBe(ours.borrowedAmountWads.toString());
    expect(theirs.collateral.mintTotalSupply.toString()).toBe('1000000000');
    expect(theirs.config.optimalBorrowRate).toBe(10);
    expect(theirs.config.protocolTakeRate).toBe(20);
    const market = LendingMarketLayout.decode(data(save.lendingMarket));
    expect(market.version).toBe(1);
    const [authority, bump] = PublicKey.findProgramAddressSync(
      [new PublicKey(save.lendingMarket).toBuffer()],
      new PublicKey(save.program),
    );
    expect(market.bumpSeed).toBe(bump);
    expect(
      saveLendingMarketAuthority(new PublicKey(save.program), new PublicKey(save.lendingMarket)),
    ).toEqual(authority);
  });

  it('deposits, accrues interest on refresh, and redeems at the rate our reader computes', () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 100_000_000n);
    const run = deposit(owner, 50_000_000n);
    expect(run.error).toBeUndefined();
    const minted = cTokens(owner);
    expect(run.logs).toContain(
      `Program log: save_lending: deposit liquidity=50000000 collateral=${minted}`,
    );
    // Minted at the rate of the refreshed reserve before the deposit (deposits leave borrows and
    // fees alone), rounded down as the program does; the reserve is left stale.
    const after = reserve();
    const rateAtDeposit = saveCollateralRate({
      ...after,
      availableAmount: after.availableAmount - 50_000_000n,
      collateralMintTotalSupply: after.collateralMintTotalSupply - minted,
    });
    expect(minted).toBe(cTokensForDeposit(50_000_000n, rateAtDeposit));
    expect(after.lastUpdateStale).toBe(true);
    const valueBefore = cTokenValue(minted, saveCollateralRate(after));
    expect(valueBefore).toBeGreaterThanOrEqual(49_999_999n);

    // A tenth of a year at 10 % a year: the borrows grow by 1 %, the protocol takes 20 % of it.
    expect(sendOnBed(bed, [refresh()], owner).error).toBeUndefined();
    const start = reserve();
    save.advanceSlots(6_307_200n);
    expect(sendOnBed(bed, [refresh()], owner).error).toBeUndefined();
    const accrued = reserve();
    const interest = accrued.borrowedAmountWads - start.borrowedAmountWads;
    const slots = accrued.lastUpdateSlot - start.lastUpdateSlot;
    expect(slots).toBeGreaterThanOrEqual(6_307_200n);
    expect(interest).toBe((start.borrowedAmountWads * 10n * slots) / (100n * 63_072_000n));
    expect(accrued.accumulatedProtocolFeesWads - start.accumulatedProtocolFeesWads).toBe(
      (interest * 20n) / 100n,
    );
    const rate = saveCollateralRate(accrued);
    // About 0.8 % on the reserve's liquidity (300 borrowed × 1 % × 80 % over ~1,050).
    expect(cTokenValue(minted, rate) - valueBefore).toBeGreaterThan(110_000n);

    const collateral = cTokensForUsdc(20_000_000n, rate, cTokens(owner));
    const before = bed.usdcBalance(owner.publicKey);
    const out = sendOnBed(
      bed,
      [
        refresh(),
        saveRedeemReserveCollateralInstruction(reserveAccounts(), ownerAccounts(owner), collateral),
      ],
      owner,
    );
    expect(out.error).toBeUndefined();
    const paid = bed.usdcBalance(owner.publicKey) - before;
    expect(paid).toBe(cTokenValue(collateral, rate));
    expect(paid).toBeGreaterThanOrEqual(20_000_000n);
  });

  it('refuses a deposit into a reserve not refreshed in this slot, and a foreign market', () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 5_000_000n);
    save.advanceSlots(1n);
    expect(deposit(owner, 1_000_000n, false).error).toContain('"Custom":6');
    const forged = saveDepositReserveLiquidityInstruction(
      { ...reserveAccounts(), lendingMarket: new PublicKey(save.reserve) },
      ownerAccounts(owner),
      1_000_000n,
    );
    expect(sendOnBed(bed, [refresh(), forged], owner).error).toContain('"Custom":3');
    expect(bed.usdcBalance(owner.publicKey)).toBe(5_000_000n);
  });
});
