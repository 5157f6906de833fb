import { MINT_SIZE, TOKEN_PROGRAM_ID, createInitializeMint2Instruction } from '@solana/spl-token';
import { SystemProgram } from '@solana/web3.js';
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';

export interface CreateMintInstructionsParameters {
  /** Where the rent-exempt minimum comes from. */
  readonly svm: Pick<LiteSVM, 'minimumBalanceForRentExemption'>;
  readonly payer: PublicKey;
  /** The new mint's address; its keypair must sign. */
  readonly mint: PublicKey;
  readonly decimals: number;
  readonly mintAuthority: PublicKey;
}

/**
 * A new SPL token mint (no freeze authority): the rent-exempt account, then its initialisation.
 *
 * @example
 * harness.send(createMintInstructions({ svm, payer: admin.publicKey, mint: mint.publicKey, decimals: 6, mintAuthority: admin.publicKey }), [admin, mint])
 */
export function createMintInstructions(
  parameters: CreateMintInstructionsParameters,
): TransactionInstruction[] {
  const { svm, payer, mint } = parameters;
  return [
    SystemProgram.createAccount({
      fromPubkey: payer,
      newAccountPubkey: mint,
      lamports: Number(svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE))),
      space: MINT_SIZE,
      programId: TOKEN_PROGRAM_ID,
    }),
    createInitializeMint2Instruction(mint, parameters.decimals, parameters.mintAuthority, null),
  ];
}
