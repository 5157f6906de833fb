import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { Connection, PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { getLendingProgram } from '@jup-ag/lend/earn';
import { deployJupiterLend, startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed, SolanaJupiterLend } from '@yieldrouter/chain-beds';
import {
  jupiterLendDepositInstruction,
  jupiterLendRedeemInstruction,
} from '../instructions/jupiterLendInstructions';
import type {
  JupiterLendMarketAccounts,
  JupiterLendOwnerAccounts,
} from '../instructions/jupiterLendInstructions';
import { sendOnBed } from '../testing/sendOnBed';
import { associatedTokenAccount } from '../tokenAccounts';
import {
  decodeJupiterLendLending,
  decodeJupiterLendTokenReserve,
  jlTokenValue,
  jlTokensForUsdc,
  jupiterLendExchangePrice,
} from './jupiterLendState';

// The bed's Jupiter Lend stand-in, driven with our instruction builders and read with both our
// decoders and the package's own Anchor coder.
let bed: SolanaBed;
let jupiter: SolanaJupiterLend;
beforeAll(async () => {
  bed = await startSolanaBed();
  jupiter = deployJupiterLend(bed);
});
afterAll(() => bed.stop());

const program = getLendingProgram({ connection: new Connection('http://127.0.0.1:9') });

function market(): JupiterLendMarketAccounts {
  const key = (value: string) => new PublicKey(value);
  return {
    lendingProgram: key(jupiter.lendingProgram),
    liquidityProgram: key(jupiter.liquidityProgram),
    mint: key(jupiter.mint),
    fTokenMint: key(jupiter.fTokenMint),
    lending: key(jupiter.lending),
    lendingAdmin: key(jupiter.lendingAdmin),
    supplyTokenReservesLiquidity: key(jupiter.supplyTokenReservesLiquidity),
    lendingSupplyPositionOnLiquidity: key(jupiter.lendingSupplyPositionOnLiquidity),
    rateModel: key(jupiter.rateModel),
    vault: key(jupiter.vault),
    liquidity: key(jupiter.liquidity),
    rewardsRateModel: key(jupiter.rewardsRateModel),
    claimAccount: key(jupiter.claimAccount),
  };
}

function ownerAccounts(owner: Keypair): JupiterLendOwnerAccounts {
  const m = market();
  return {
    signer: owner.publicKey,
    ownerAsset: associatedTokenAccount(owner.publicKey, m.mint),
    ownerFToken: associatedTokenAccount(owner.publicKey, m.fTokenMint),
  };
}

function data(address: string): Buffer {
  const account = bed.svm.getAccount(address as Parameters<SolanaBed['svm']['getAccount']>[0]);
  if (!account.exists) throw new Error(`no account at ${address}`);
  return Buffer.from(account.data);
}
const state = () => ({
  lending: decodeJupiterLendLending(data(jupiter.lending)),
  reserve: decodeJupiterLendTokenReserve(data(jupiter.supplyTokenReservesLiquidity)),
});
const jlUsdc = (owner: Keypair) => bed.tokenBalance(jupiter.fTokenMint, owner.publicKey);

function deposit(owner: Keypair, assets: bigint) {
  const m = market();
  const accounts = ownerAccounts(owner);
  return sendOnBed(
    bed,
    [
      createAssociatedTokenAccountIdempotentInstruction(
        owner.publicKey,
        accounts.ownerFToken,
        owner.publicKey,
        m.fTokenMint,
      ),
      jupiterLendDepositInstruction(m, accounts, assets),
    ],
    owner,
  );
}

describe('the Jupiter Lend stand-in', () => {
  it('lays out its accounts as the package decodes them, at the addresses it derives', () => {
    const theirs = program.coder.accounts.decode('lending', data(jupiter.lending));
    const ours = state().lending;
    expect(theirs.mint.toBase58()).toBe(jupiter.mint);
    expect(theirs.fTokenMint.toBase58()).toBe(jupiter.fTokenMint);
    expect(theirs.tokenReservesLiquidity.toBase58()).toBe(jupiter.supplyTokenReservesLiquidity);
    expect(theirs.supplyPositionOnLiquidity.toBase58()).toBe(
      jupiter.lendingSupplyPositionOnLiquidity,
    );
    expect(theirs.tokenExchangePrice.toString()).toBe(ours.tokenExchangePrice.toString());
    expect(theirs.liquidityExchangePrice.toString()).toBe(ours.liquidityExchangePrice.toString());
    const reserve = program.coder.accounts.decode(
      'tokenReserve',
      data(jupiter.supplyTokenReservesLiquidity),
    );
    expect(reserve.vault.toBase58()).toBe(jupiter.vault);
    expect(reserve.supplyExchangePrice.toString()).toBe('1000000000000');
  });

  it('deposits, accrues on the liquidity layer, and redeems at the price our reader computes', () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 100_000_000n);
    const run = deposit(owner, 40_000_000n);
    expect(run.error).toBeUndefined();
    expect(run.logs).toContain(
      'Program log: jupiter_lend: deposit assets=40000000 shares=40000000 price=1000000000000',
    );
    expect(jlUsdc(owner)).toBe(40_000_000n);

    // 10.4 USDC of interest on the 1,040 the vault holds: the supply price grows by 1 %.
    jupiter.accrue(10_400_000n);
    const { lending, reserve } = state();
    expect(reserve.supplyExchangePrice).toBe(1_010_000_000_000n);
    expect(lending.tokenExchangePrice).toBe(1_000_000_000_000n); // not written yet
    const price = jupiterLendExchangePrice(lending, reserve);
    expect(price).toBe(1_010_000_000_000n);
    expect(jlTokenValue(jlUsdc(owner), price)).toBe(40_400_000n);

    // Redeem enough for 20 USDC: shares rounded up, at least 20 paid, exactly their value.
    const shares = jlTokensForUsdc(20_000_000n, price, jlUsdc(owner));
    expect(shares).toBe(19_801_981n);
    const before = bed.usdcBalance(owner.publicKey);
    const out = sendOnBed(
      bed,
      [jupiterLendRedeemInstruction(market(), ownerAccounts(owner), shares)],
      owner,
    );
    expect(out.error).toBeUndefined();
    const paid = bed.usdcBalance(owner.publicKey) - before;
    expect(paid).toBe(jlTokenValue(shares, price));
    expect(paid).toBeGreaterThanOrEqual(20_000_000n);
    // The program wrote the price our reader computed.
    expect(state().lending.tokenExchangePrice).toBe(price);
    expect(
      program.coder.accounts.decode('lending', data(jupiter.lending)).tokenExchangePrice.toString(),
    ).toBe(price.toString());
  });

  it('refuses another market’s accounts, and a redeem of more jlUSDC than the owner holds', () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 5_000_000n);
    const m = market();
    const forged = jupiterLendDepositInstruction(
      { ...m, supplyTokenReservesLiquidity: m.lending },
      ownerAccounts(owner),
      1_000_000n,
    );
    expect(sendOnBed(bed, [forged], owner).error).toContain('"Custom":3');
    expect(deposit(owner, 2_000_000n).ok).toBe(true);
    const over = sendOnBed(
      bed,
      [jupiterLendRedeemInstruction(m, ownerAccounts(owner), jlUsdc(owner) + 1n)],
      owner,
    );
    expect(over.ok).toBe(false);
    expect(jlUsdc(owner)).toBeGreaterThan(0n);
  });
});
