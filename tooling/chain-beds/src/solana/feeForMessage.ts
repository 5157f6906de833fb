import { ComputeBudgetProgram, VersionedMessage } from '@solana/web3.js';
import { invalidParams } from './rpcError';

/** Solana's base fee: lamports per signature the message requires. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;

/** The compute units a transaction may use without SetComputeUnitLimit, per instruction. */
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n;
const MAX_COMPUTE_UNITS = 1_400_000n;
const MICRO_LAMPORTS_PER_LAMPORT = 1_000_000n;

/** The message a `getFeeForMessage` call names (base64 wire bytes of a legacy or v0 message). */
export function decodeMessage(text: string): VersionedMessage {
  try {
    return VersionedMessage.deserialize(Buffer.from(text, 'base64'));
  } catch {
    throw invalidParams('invalid message: not a base64 Solana message');
  }
}

/**
 * What the runtime charges for `message` when it lands, as a node's `getFeeForMessage` computes
 * it: the base fee (5000 lamports per required signature) plus the priority fee — the
 * compute-unit price (ComputeBudget `SetComputeUnitPrice`, micro-lamports) times the
 * compute-unit limit (`SetComputeUnitLimit`, else 200 000 per instruction that is not a
 * compute-budget one, at most 1 400 000), rounded up to a lamport.
 */
export function feeForMessage(message: VersionedMessage): bigint {
  const keys = message.staticAccountKeys;
  let price = 0n;
  let limit: bigint | undefined;
  let others = 0n;
  for (const instruction of message.compiledInstructions) {
    if (!keys[instruction.programIdIndex]?.equals(ComputeBudgetProgram.programId)) {
      others += 1n;
      continue;
    }
    const data = Buffer.from(instruction.data);
    if (data[0] === 2 && data.length >= 5) limit = BigInt(data.readUInt32LE(1));
    if (data[0] === 3 && data.length >= 9) price = data.readBigUInt64LE(1);
  }
  const units = limit ?? minimum(others * DEFAULT_UNITS_PER_INSTRUCTION, MAX_COMPUTE_UNITS);
  const priority =
    (price * minimum(units, MAX_COMPUTE_UNITS) + MICRO_LAMPORTS_PER_LAMPORT - 1n) /
    MICRO_LAMPORTS_PER_LAMPORT;
  return LAMPORTS_PER_SIGNATURE * BigInt(message.header.numRequiredSignatures) + priority;
}

const minimum = (a: bigint, b: bigint) => (a < b ? a : b);
