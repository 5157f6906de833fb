import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import type { TransactionInstruction } from '@solana/web3.js';
import {
  getDepositContext,
  getDepositIx,
  getRedeemIx,
  getWithdrawContext,
} from '@jup-ag/lend/earn';
import BN from 'bn.js';
import { startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed } from '@yieldrouter/chain-beds';
import {
  JUPITER_LEND_DISCRIMINATORS,
  jupiterLendDepositInstruction,
  jupiterLendRedeemInstruction,
} from './jupiterLendInstructions';
import type {
  JupiterLendMarketAccounts,
  JupiterLendOwnerAccounts,
} from './jupiterLendInstructions';

// The package's builders read the asset mint's owner (its token program) over RPC: they talk to
// a Solana bed holding USDC at its mainnet address, so everything else is the package's own code.
let bed: SolanaBed;
let connection: Connection;
beforeAll(async () => {
  bed = await startSolanaBed();
  connection = new Connection(bed.rpcUrl, 'confirmed');
});
afterAll(() => bed.stop());

/** The market's accounts exactly as the package derives them for `asset`. */
async function marketOf(asset: PublicKey, signer: PublicKey): Promise<JupiterLendMarketAccounts> {
  const deposit = await getDepositContext({ asset, signer, connection });
  const withdraw = await getWithdrawContext({ asset, signer, connection });
  return {
    lendingProgram: new PublicKey('jup3YeL8QhtSx1e253b2FDvsMNC87fDrgQZivbrndc9'),
    liquidityProgram: deposit.liquidityProgram,
    mint: deposit.mint,
    fTokenMint: deposit.fTokenMint,
    lending: deposit.lending,
    lendingAdmin: deposit.lendingAdmin,
    supplyTokenReservesLiquidity: deposit.supplyTokenReservesLiquidity,
    lendingSupplyPositionOnLiquidity: deposit.lendingSupplyPositionOnLiquidity,
    rateModel: deposit.rateModel,
    vault: deposit.vault,
    liquidity: deposit.liquidity,
    rewardsRateModel: deposit.rewardsRateModel,
    claimAccount: withdraw.claimAccount,
  };
}

function ownerOf(market: JupiterLendMarketAccounts, signer: PublicKey): JupiterLendOwnerAccounts {
  return {
    signer,
    ownerAsset: getAssociatedTokenAddressSync(market.mint, signer),
    ownerFToken: getAssociatedTokenAddressSync(market.fTokenMint, signer),
  };
}

const metas = (instruction: TransactionInstruction) =>
  instruction.keys.map((key) => ({
    pubkey: key.pubkey.toBase58(),
    isSigner: key.isSigner,
    isWritable: key.isWritable,
  }));

function expectSame(ours: TransactionInstruction, theirs: TransactionInstruction): void {
  expect(ours.programId.toBase58()).toBe(theirs.programId.toBase58());
  expect(Buffer.from(ours.data).toString('hex')).toBe(Buffer.from(theirs.data).toString('hex'));
  expect(metas(ours)).toEqual(metas(theirs));
}

describe('Jupiter Lend Earn instructions against @jup-ag/lend', () => {
  const usdc = new PublicKey('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');

  it.each([1n, 5_000_000n, (1n << 64n) - 1n])(
    'deposit(%s) matches the package byte for byte, accounts in order',
    async (assets) => {
      const signer = Keypair.generate().publicKey;
      const market = await marketOf(usdc, signer);
      const theirs = await getDepositIx({
        amount: new BN(assets.toString()),
        asset: usdc,
        signer,
        connection,
      });
      const ours = jupiterLendDepositInstruction(market, ownerOf(market, signer), assets);
      expectSame(ours, theirs);
      expect(ours.keys).toHaveLength(17);
      expect(Buffer.from(ours.data.subarray(0, 8))).toEqual(JUPITER_LEND_DISCRIMINATORS.deposit);
    },
  );

  it.each([1n, 4_987_654n, (1n << 64n) - 1n])(
    'redeem(%s) matches the package byte for byte, accounts in order',
    async (shares) => {
      const signer = Keypair.generate().publicKey;
      const market = await marketOf(usdc, signer);
      const theirs = await getRedeemIx({
        shares: new BN(shares.toString()),
        asset: usdc,
        signer,
        connection,
      });
      const ours = jupiterLendRedeemInstruction(market, ownerOf(market, signer), shares);
      expectSame(ours, theirs);
      expect(ours.keys).toHaveLength(18);
    },
  );

  it('refuses amounts the u64 argument cannot carry', async () => {
    const signer = Keypair.generate().publicKey;
    const market = await marketOf(usdc, signer);
    const owner = ownerOf(market, signer);
    expect(() => jupiterLendDepositInstruction(market, owner, 0n)).toThrow(RangeError);
    expect(() => jupiterLendRedeemInstruction(market, owner, 1n << 64n)).toThrow(RangeError);
  });
});
