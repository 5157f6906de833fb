import { Keypair, PublicKey } from '@solana/web3.js';
import BN from 'bn.js';
import { depositReserveLiquidityInstruction } from '@solendprotocol/solend-sdk/instructions/depositReserveLiquidity';
import { redeemReserveCollateralInstruction } from '@solendprotocol/solend-sdk/instructions/redeemReserveCollateral';
import { refreshReserveInstruction } from '@solendprotocol/solend-sdk/instructions/refreshReserve';
import { SOLEND_PRODUCTION_PROGRAM_ID } from '@solendprotocol/solend-sdk/core/constants';
import {
  SAVE_INSTRUCTION_TAGS,
  saveDepositReserveLiquidityInstruction,
  saveLendingMarketAuthority,
  saveRedeemReserveCollateralInstruction,
  saveRefreshReserveInstruction,
} from './saveInstructions';
import type { SaveOwnerAccounts, SaveReserveAccounts } from './saveInstructions';
import { expectSameInstruction } from '../testing/instructionShape';

const key = (): PublicKey => Keypair.generate().publicKey;

function fixture(): { reserve: SaveReserveAccounts; owner: SaveOwnerAccounts } {
  return {
    reserve: {
      program: new PublicKey(SOLEND_PRODUCTION_PROGRAM_ID.toBase58()),
      lendingMarket: key(),
      reserve: key(),
      liquiditySupply: key(),
      collateralMint: key(),
      pythOracle: key(),
      switchboardOracle: key(),
    },
    owner: { owner: key(), ownerLiquidity: key(), ownerCollateral: key() },
  };
}

// The SDK's builders take its own web3.js (1.92.3) keys: each of ours goes in by its base58.
type SdkKey = Parameters<typeof depositReserveLiquidityInstruction>[1];
const SdkPublicKey = SOLEND_PRODUCTION_PROGRAM_ID.constructor as new (base58: string) => SdkKey;
const sdk = (pubkey: PublicKey): SdkKey => new SdkPublicKey(pubkey.toBase58());

describe('Save (Solend) instructions against @solendprotocol/solend-sdk', () => {
  it.each([1n, 5_000_000n, (1n << 64n) - 1n])(
    'DepositReserveLiquidity(%s) matches the SDK byte for byte, accounts in order',
    (amount) => {
      const { reserve, owner } = fixture();
      const authority = saveLendingMarketAuthority(reserve.program, reserve.lendingMarket);
      const theirs = depositReserveLiquidityInstruction(
        new BN(amount.toString()),
        sdk(owner.ownerLiquidity),
        sdk(owner.ownerCollateral),
        sdk(reserve.reserve),
        sdk(reserve.liquiditySupply),
        sdk(reserve.collateralMint),
        sdk(reserve.lendingMarket),
        sdk(authority),
        sdk(owner.owner),
        sdk(reserve.program),
      );
      const ours = saveDepositReserveLiquidityInstruction(reserve, owner, amount);
      expectSameInstruction(ours, theirs);
      expect(ours.data[0]).toBe(SAVE_INSTRUCTION_TAGS.depositReserveLiquidity);
    },
  );

  it.each([1n, 4_987_654n, (1n << 64n) - 1n])(
    'RedeemReserveCollateral(%s) matches the SDK byte for byte, accounts in order',
    (amount) => {
      const { reserve, owner } = fixture();
      const authority = saveLendingMarketAuthority(reserve.program, reserve.lendingMarket);
      const theirs = redeemReserveCollateralInstruction(
        new BN(amount.toString()),
        sdk(owner.ownerCollateral),
        sdk(owner.ownerLiquidity),
        sdk(reserve.reserve),
        sdk(reserve.collateralMint),
        sdk(reserve.liquiditySupply),
        sdk(reserve.lendingMarket),
        sdk(authority),
        sdk(owner.owner),
        sdk(reserve.program),
      );
      expectSameInstruction(saveRedeemReserveCollateralInstruction(reserve, owner, amount), theirs);
    },
  );

  it('RefreshReserve matches the SDK with both oracles', () => {
    const { reserve } = fixture();
    const theirs = refreshReserveInstruction(
      sdk(reserve.reserve),
      sdk(reserve.program),
      sdk(reserve.pythOracle),
      sdk(reserve.switchboardOracle),
    );
    expectSameInstruction(saveRefreshReserveInstruction(reserve), theirs);
  });

  it('derives the lending market authority as the program does: the market is its one seed', () => {
    const { reserve } = fixture();
    const [expected] = PublicKey.findProgramAddressSync(
      [reserve.lendingMarket.toBuffer()],
      reserve.program,
    );
    expect(saveLendingMarketAuthority(reserve.program, reserve.lendingMarket)).toEqual(expected);
  });

  it('refuses amounts the u64 argument cannot carry', () => {
    const { reserve, owner } = fixture();
    expect(() => saveDepositReserveLiquidityInstruction(reserve, owner, 0n)).toThrow(RangeError);
    expect(() => saveRedeemReserveCollateralInstruction(reserve, owner, 1n << 64n)).toThrow(
      RangeError,
    );
  });
});
