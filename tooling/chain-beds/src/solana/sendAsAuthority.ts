import { TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { Keypair, TransactionInstruction } from '@solana/web3.js';
import type { ExecutionOutcome } from './solanaLedger';

/** What the bed's own transactions go through: its blockhash and its preflighted send. */
export interface BedSender {
  latestBlockhash(): string;
  send(transaction: VersionedTransaction): ExecutionOutcome;
}

export interface SendAsAuthorityParameters {
  readonly sender: BedSender;
  /** Pays the fee and signs first. */
  readonly authority: Keypair;
  readonly instructions: TransactionInstruction[];
  readonly signers?: Keypair[];
  /** Names the failure: `${what} transaction failed: …`. */
  readonly what: string;
}

/**
 * Signs and runs a fixture transaction of the bed's authority; one that is dropped or lands with
 * an error throws with the error and the program logs, since a fixture must not half-happen.
 *
 * @example
 * sendAsAuthority({ sender: bed, authority: bed.mintAuthority, instructions, what: 'deploy' })
 */
export function sendAsAuthority(parameters: SendAsAuthorityParameters): void {
  const { sender, authority, signers = [] } = parameters;
  const message = new TransactionMessage({
    payerKey: authority.publicKey,
    recentBlockhash: sender.latestBlockhash(),
    instructions: parameters.instructions,
  }).compileToV0Message();
  const transaction = new VersionedTransaction(message);
  transaction.sign([authority, ...signers]);
  const outcome = sender.send(transaction);
  if (!outcome.landed || outcome.entry.err !== null) {
    const logs = outcome.landed ? outcome.entry.logMessages : outcome.logs;
    throw new Error(
      `${parameters.what} transaction failed: ${JSON.stringify(outcome.landed ? outcome.entry.err : outcome.err)}\n${logs.join('\n')}`,
    );
  }
}
