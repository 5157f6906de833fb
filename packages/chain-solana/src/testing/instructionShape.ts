import type { TransactionInstruction } from '@solana/web3.js';

/** An instruction from any web3.js copy (a protocol SDK's own), compared by base58 and hex. */
export interface ComparableInstruction {
  readonly programId: { toBase58(): string };
  readonly data: Uint8Array;
  readonly keys: readonly {
    pubkey: { toBase58(): string };
    isSigner: boolean;
    isWritable: boolean;
  }[];
}

const shape = (instruction: ComparableInstruction) => ({
  programId: instruction.programId.toBase58(),
  data: Buffer.from(instruction.data).toString('hex'),
  keys: instruction.keys.map((meta) => ({
    pubkey: meta.pubkey.toBase58(),
    isSigner: meta.isSigner,
    isWritable: meta.isWritable,
  })),
});

/** Ours equals the SDK's byte for byte: program, data, accounts in order with their flags. */
export const expectSameInstruction = (
  ours: TransactionInstruction,
  theirs: ComparableInstruction,
): void => expect(shape(ours)).toEqual(shape(theirs));
