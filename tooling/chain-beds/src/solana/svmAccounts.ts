import type { LiteSVM } from 'litesvm';

/** litesvm's branded address type (from @solana/kit, which the bed reaches only through litesvm). */
export type SvmAddress = Parameters<LiteSVM['getBalance']>[0];
/** litesvm's branded lamports type. */
export type SvmLamports = Parameters<LiteSVM['airdrop']>[1];

/** An account as the bed reads it: plain base58 strings and bigint lamports. */
export interface BedAccount {
  readonly address: string;
  readonly lamports: bigint;
  /** The program that owns the account (base58). */
  readonly owner: string;
  readonly data: Uint8Array;
  readonly executable: boolean;
}

/** A base58 address as litesvm's branded type (litesvm checks the bytes itself). */
export function svmAddress(address: string): SvmAddress {
  return address as SvmAddress;
}

/** The account at `address`, or undefined when it does not exist. */
export function readAccount(svm: LiteSVM, address: string): BedAccount | undefined {
  const account = svm.getAccount(svmAddress(address));
  if (!account.exists) return undefined;
  return {
    address,
    lamports: BigInt(account.lamports),
    owner: account.programAddress,
    data: new Uint8Array(account.data),
    executable: account.executable,
  };
}

/** Every account owned by `program`. */
export function readProgramAccounts(svm: LiteSVM, program: string): BedAccount[] {
  return svm.getProgramAccounts(svmAddress(program)).map((account) => ({
    address: account.address,
    lamports: BigInt(account.lamports),
    owner: account.programAddress,
    data: new Uint8Array(account.data),
    executable: account.executable,
  }));
}

/** Writes an account, bypassing the runtime (fixtures only: the USDC mint at its real address). */
export function writeAccount(svm: LiteSVM, account: BedAccount): void {
  svm.setAccount({
    address: svmAddress(account.address),
    lamports: account.lamports as SvmLamports,
    programAddress: svmAddress(account.owner),
    data: account.data,
    executable: account.executable,
    space: BigInt(account.data.length),
  });
}
