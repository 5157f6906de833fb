import {
  ACCOUNT_SIZE,
  AccountLayout,
  AccountState,
  MINT_SIZE,
  MintLayout,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import type { BedAccount } from './svmAccounts';

/** The two SPL token programs, base58. */
export const TOKEN_PROGRAMS: readonly string[] = [
  TOKEN_PROGRAM_ID.toBase58(),
  TOKEN_2022_PROGRAM_ID.toBase58(),
];

/** The fields of an SPL token account the RPC reports. */
export interface TokenAccountView {
  readonly mint: string;
  readonly owner: string;
  readonly amount: bigint;
  readonly state: 'initialized' | 'frozen';
  readonly isNative: boolean;
  readonly programId: string;
}

/** The fields of an SPL mint the RPC reports. */
export interface MintView {
  readonly decimals: number;
  readonly supply: bigint;
  readonly mintAuthority: string | null;
  readonly freezeAuthority: string | null;
  readonly isInitialized: boolean;
}

/** The token account held in `account`, or undefined when it is not an initialized one. */
export function decodeTokenAccount(account: BedAccount): TokenAccountView | undefined {
  if (!TOKEN_PROGRAMS.includes(account.owner) || account.data.length < ACCOUNT_SIZE) {
    return undefined;
  }
  // Token-2022 accounts with extensions are longer and carry account type 2 at byte 165 (mint: 1).
  if (account.data.length > ACCOUNT_SIZE && account.data[ACCOUNT_SIZE] !== 2) return undefined;
  const decoded = AccountLayout.decode(account.data);
  if (decoded.state === AccountState.Uninitialized) return undefined;
  return {
    mint: decoded.mint.toBase58(),
    owner: decoded.owner.toBase58(),
    amount: decoded.amount,
    state: decoded.state === AccountState.Frozen ? 'frozen' : 'initialized',
    isNative: decoded.isNativeOption === 1,
    programId: account.owner,
  };
}

/** The mint held in `account`, or undefined when it is not an SPL mint. */
export function decodeMint(account: BedAccount): MintView | undefined {
  if (!TOKEN_PROGRAMS.includes(account.owner) || account.data.length < MINT_SIZE) return undefined;
  if (account.data.length === ACCOUNT_SIZE) return undefined;
  if (account.data.length > ACCOUNT_SIZE && account.data[ACCOUNT_SIZE] !== 1) return undefined;
  const decoded = MintLayout.decode(account.data);
  if (!decoded.isInitialized) return undefined;
  return {
    decimals: decoded.decimals,
    supply: decoded.supply,
    mintAuthority: decoded.mintAuthorityOption === 1 ? decoded.mintAuthority.toBase58() : null,
    freezeAuthority:
      decoded.freezeAuthorityOption === 1 ? decoded.freezeAuthority.toBase58() : null,
    isInitialized: decoded.isInitialized,
  };
}

/** Encodes an initialized SPL mint (82 bytes) for `writeAccount`. */
export function encodeMint(mint: {
  readonly decimals: number;
  readonly supply: bigint;
  readonly mintAuthority: PublicKey;
}): Uint8Array {
  const data = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 1,
      mintAuthority: mint.mintAuthority,
      supply: mint.supply,
      decimals: mint.decimals,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: mint.mintAuthority,
    },
    data,
  );
  return new Uint8Array(data);
}

/**
 * The RPC's `uiTokenAmount`: the raw amount as a string plus its decimal rendering (the float
 * `uiAmount` is what real nodes send; nothing here reads it back).
 */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const base = 10n ** BigInt(decimals);
  const whole = amount / base;
  const fraction = (amount % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole.toString();
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}
