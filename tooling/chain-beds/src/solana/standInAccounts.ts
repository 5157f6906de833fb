import { createTransferInstruction } from '@solana/spl-token';
import type { PublicKey } from '@solana/web3.js';
import { sendAsAuthority } from './sendAsAuthority';
import type { SolanaBed } from './startSolanaBed';
import { writeAccount } from './svmAccounts';

/**
 * Writes a stand-in's account (rent-exempt, not executable), bypassing the runtime: the protocol
 * state a venue stand-in starts from.
 *
 * @example
 * writeStandInAccount(bed, reserve, program, reserveData);
 */
export function writeStandInAccount(
  bed: SolanaBed,
  address: PublicKey,
  owner: PublicKey,
  data: Buffer,
): void {
  writeAccount(bed.svm, {
    address: address.toBase58(),
    lamports: BigInt(bed.svm.minimumBalanceForRentExemption(BigInt(data.length))),
    owner: owner.toBase58(),
    data,
    executable: false,
  });
}

/**
 * Real USDC into a stand-in's token account: minted to the bed's authority and moved in.
 *
 * @example
 * fundWithUsdc(bed, vault, 700_000_000n, 'save reserve funding');
 */
export function fundWithUsdc(bed: SolanaBed, account: PublicKey, micros: bigint, what: string) {
  const holder = bed.mintUsdc(bed.mintAuthority.publicKey, micros);
  sendAsAuthority({
    sender: bed,
    authority: bed.mintAuthority,
    instructions: [createTransferInstruction(holder, account, bed.mintAuthority.publicKey, micros)],
    what,
  });
}
