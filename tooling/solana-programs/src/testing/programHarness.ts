import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { Keypair, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';

type SvmAddress = Parameters<LiteSVM['getBalance']>[0];
type SvmLamports = Parameters<LiteSVM['airdrop']>[1];
type SvmTransaction = Parameters<LiteSVM['sendTransaction']>[0];

/** What a transaction did in the SVM: its logs, and the error text when it failed. */
export interface ProgramRun {
  readonly ok: boolean;
  readonly logs: readonly string[];
  /** litesvm's rendering of the transaction error (e.g. `InstructionError(0, Custom(3))`). */
  readonly error: string | undefined;
  /** The cross-program invocations of a successful run, in order (account keys resolved). */
  readonly innerInstructions?: readonly InnerCall[];
}

/** One cross-program invocation: the called program, its accounts and data. */
export interface InnerCall {
  readonly programId: string;
  readonly accounts: readonly string[];
  readonly data: Buffer;
}

/** The `Program log: ` lines of a run, without the prefix. */
export function programLogs(run: ProgramRun): string[] {
  return run.logs
    .filter((line) => line.startsWith('Program log: '))
    .map((line) => line.slice('Program log: '.length));
}

export const address = (key: PublicKey | string): SvmAddress =>
  (typeof key === 'string' ? key : key.toBase58()) as SvmAddress;

/** A litesvm with a funded payer, and a way to send web3.js instructions signed by keypairs. */
export class ProgramHarness {
  readonly svm = new LiteSVM();
  readonly payer = Keypair.generate();

  constructor() {
    this.fund(this.payer.publicKey);
  }

  fund(key: PublicKey, lamports = 10_000_000_000n): void {
    this.svm.airdrop(address(key), lamports as SvmLamports);
  }

  /** A fresh funded keypair. */
  keypair(): Keypair {
    const keypair = Keypair.generate();
    this.fund(keypair.publicKey);
    return keypair;
  }

  /** Signs with the payer (fee payer) plus `signers` and runs the instructions. */
  send(instructions: TransactionInstruction[], signers: Keypair[] = []): ProgramRun {
    const feePayer = signers[0] ?? this.payer;
    const message = new TransactionMessage({
      payerKey: feePayer.publicKey,
      recentBlockhash: this.svm.latestBlockhash(),
      instructions,
    }).compileToV0Message();
    const transaction = new VersionedTransaction(message);
    transaction.sign(signers.length > 0 ? signers : [this.payer]);
    const { header, staticAccountKeys } = transaction.message;
    const signatures: Record<string, Uint8Array> = {};
    for (let index = 0; index < header.numRequiredSignatures; index += 1) {
      const signer = staticAccountKeys[index];
      if (signer)
        signatures[signer.toBase58()] = transaction.signatures[index] ?? new Uint8Array(64);
    }
    const result = this.svm.sendTransaction({
      messageBytes: transaction.message.serialize(),
      signatures,
    } as unknown as SvmTransaction);
    this.svm.expireBlockhash();
    if (result instanceof FailedTransactionMetadata) {
      return { ok: false, logs: result.meta().logs(), error: result.toString() };
    }
    const keys = transaction.message.staticAccountKeys.map((key) => key.toBase58());
    const innerInstructions = result.innerInstructions().flatMap((calls) =>
      calls.map((call) => {
        const compiled = call.instruction();
        return {
          programId: keys[compiled.programIdIndex()] ?? '',
          accounts: [...compiled.accounts()].map((index) => keys[index] ?? ''),
          data: Buffer.from(compiled.data()),
        };
      }),
    );
    return { ok: true, logs: result.logs(), error: undefined, innerInstructions };
  }

  /** The account's data, or undefined when it does not exist. */
  data(key: PublicKey): Uint8Array | undefined {
    const account = this.svm.getAccount(address(key));
    return account.exists ? new Uint8Array(account.data) : undefined;
  }
}
