import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey, SYSVAR_INSTRUCTIONS_PUBKEY, TransactionInstruction } from '@solana/web3.js';
import type { AccountMeta } from '@solana/web3.js';
import { ata, discriminator } from './programInstructions';

// Instruction builders for our klend stand-in (programs/klend_standin), deployed in the beds at
// klend's real program id. The klend instructions follow klend's IDL (@kamino-finance/klend-sdk);
// the `standin_*` ones are the bed's own set-up, not klend's interface.

/** klend's mainnet program id (klend-sdk's `PROGRAM_ID`): where the beds load the stand-in. */
export const KLEND_PROGRAM_ID = new PublicKey('KLend2g3cP87fffoy8q1mQqGKjrxjC8boSyAYavgmjD');
/** klend's LendingMarket and Reserve account sizes (8-byte discriminator + the IDL's struct). */
export const KLEND_MARKET_SIZE = 4664;
export const KLEND_RESERVE_SIZE = 8624;

/** One klend reserve lending USDC, as the stand-in holds it. */
export interface KlendStandinReserve {
  readonly program: PublicKey;
  readonly lendingMarket: PublicKey;
  readonly reserve: PublicKey;
  readonly liquidityMint: PublicKey;
  /** USDC the reserve holds: a token account of the lending market authority. */
  readonly liquiditySupply: PublicKey;
  /** The cToken mint (authority: the lending market authority). */
  readonly collateralMint: PublicKey;
  readonly feeVault: PublicKey;
}

const w = (pubkey: PublicKey, isSigner = false): AccountMeta => ({
  pubkey,
  isSigner,
  isWritable: true,
});
const r = (pubkey: PublicKey, isSigner = false): AccountMeta => ({
  pubkey,
  isSigner,
  isWritable: false,
});

/** `discriminator(name) ++ u64 value`: the data of every one-argument instruction here. */
const u64Data = (name: string, value: bigint): Buffer => {
  const data = Buffer.alloc(16);
  discriminator(name).copy(data, 0);
  data.writeBigUInt64LE(value, 8);
  return data;
};

/** The lending market authority PDA `["lma", market]`. */
export const klendMarketAuthority = (program: PublicKey, lendingMarket: PublicKey): PublicKey =>
  PublicKey.findProgramAddressSync([Buffer.from('lma'), lendingMarket.toBuffer()], program)[0];

export function standinInitMarket(
  program: PublicKey,
  owner: PublicKey,
  lendingMarket: PublicKey,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: program,
    keys: [r(owner, true), w(lendingMarket)],
    data: discriminator('standin_init_market'),
  });
}

/** The reserve lends at a flat `borrowRateBps` a year; `protocolTakeRatePct` of interest is fees. */
export function standinInitReserve(
  reserve: KlendStandinReserve,
  owner: PublicKey,
  borrowRateBps: number,
  protocolTakeRatePct: number,
): TransactionInstruction {
  const data = Buffer.alloc(13);
  discriminator('standin_init_reserve').copy(data, 0);
  data.writeUInt32LE(borrowRateBps, 8);
  data.writeUInt8(protocolTakeRatePct, 12);
  return new TransactionInstruction({
    programId: reserve.program,
    keys: [
      r(owner, true),
      r(reserve.lendingMarket),
      w(reserve.reserve),
      r(reserve.liquidityMint),
      r(reserve.liquiditySupply),
      r(reserve.collateralMint),
      r(reserve.feeVault),
    ],
    data,
  });
}

/** The market owner borrows `amount` USDC from the reserve (interest then accrues on it). */
export function standinBorrow(
  reserve: KlendStandinReserve,
  owner: PublicKey,
  amount: bigint,
): TransactionInstruction {
  const data = u64Data('standin_borrow', amount);
  return new TransactionInstruction({
    programId: reserve.program,
    keys: [
      r(owner, true),
      r(reserve.lendingMarket),
      w(reserve.reserve),
      r(klendMarketAuthority(reserve.program, reserve.lendingMarket)),
      r(reserve.liquidityMint),
      w(reserve.liquiditySupply),
      w(ata(owner, reserve.liquidityMint)),
      r(TOKEN_PROGRAM_ID),
    ],
    data,
  });
}

/**
 * The skimming build only (programs/klend_skimming): from now on every deposit takes `bps` of the
 * liquidity on top of what it books and every redeem pays `bps` less (0: honest again).
 */
export function standinSetSkim(
  reserve: Pick<KlendStandinReserve, 'program' | 'lendingMarket'>,
  owner: PublicKey,
  bps: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: reserve.program,
    keys: [r(owner, true), w(reserve.lendingMarket)],
    data: u64Data('standin_set_skim', bps),
  });
}

/** klend's `refresh_reserve` with no oracle (each oracle slot given the program id, as the SDK does). */
export function klendRefreshReserve(reserve: KlendStandinReserve): TransactionInstruction {
  return new TransactionInstruction({
    programId: reserve.program,
    keys: [
      w(reserve.reserve),
      r(reserve.lendingMarket),
      r(reserve.program),
      r(reserve.program),
      r(reserve.program),
      r(reserve.program),
    ],
    data: discriminator('refresh_reserve'),
  });
}

/** klend's deposit_reserve_liquidity / redeem_reserve_collateral accounts for `owner` (IDL order). */
export function klendMoveAccounts(
  name: 'deposit_reserve_liquidity' | 'redeem_reserve_collateral',
  reserve: KlendStandinReserve,
  owner: PublicKey,
): AccountMeta[] {
  const authority = klendMarketAuthority(reserve.program, reserve.lendingMarket);
  const ownerLiquidity = ata(owner, reserve.liquidityMint);
  const ownerCollateral = ata(owner, reserve.collateralMint);
  const tail = [r(TOKEN_PROGRAM_ID), r(TOKEN_PROGRAM_ID), r(SYSVAR_INSTRUCTIONS_PUBKEY)];
  return name === 'deposit_reserve_liquidity'
    ? [
        r(owner, true),
        w(reserve.reserve),
        r(reserve.lendingMarket),
        r(authority),
        r(reserve.liquidityMint),
        w(reserve.liquiditySupply),
        w(reserve.collateralMint),
        w(ownerLiquidity),
        w(ownerCollateral),
        ...tail,
      ]
    : [
        r(owner, true),
        r(reserve.lendingMarket),
        w(reserve.reserve),
        r(authority),
        r(reserve.liquidityMint),
        w(reserve.collateralMint),
        w(reserve.liquiditySupply),
        w(ownerCollateral),
        w(ownerLiquidity),
        ...tail,
      ];
}

/** klend's own deposit / redeem called directly by `owner` (no router). */
export function klendMove(
  name: 'deposit_reserve_liquidity' | 'redeem_reserve_collateral',
  reserve: KlendStandinReserve,
  owner: PublicKey,
  amount: bigint,
): TransactionInstruction {
  const data = u64Data(name, amount);
  return new TransactionInstruction({
    programId: reserve.program,
    keys: klendMoveAccounts(name, reserve, owner),
    data,
  });
}
