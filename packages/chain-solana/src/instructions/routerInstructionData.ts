import { createHash } from 'node:crypto';
import { planIdFromBytes, planIdToBytes } from '@yieldrouter/schemas';

/** The router program instructions the adapter builds. */
export const ROUTER_INSTRUCTIONS = [
  'deposit',
  'withdraw',
  'deposit_to_venue',
  'withdraw_from_venue',
] as const;
export type RouterInstructionName = (typeof ROUTER_INSTRUCTIONS)[number];

/** 8 discriminator bytes + u64 amount + 16 plan-id bytes. */
export const ROUTER_INSTRUCTION_DATA_LENGTH = 32;

const U64_MAX = (1n << 64n) - 1n;

/**
 * Anchor's instruction discriminator: the first 8 bytes of sha256("global:<name>").
 *
 * @example
 * routerDiscriminator('withdraw'); // 8 bytes
 */
export function routerDiscriminator(name: RouterInstructionName): Buffer {
  return createHash('sha256').update(`global:${name}`).digest().subarray(0, 8);
}

/** The decoded data of a router instruction. */
export interface RouterInstructionData {
  readonly name: RouterInstructionName;
  readonly amountMicros: bigint;
  readonly planId: string;
}

/**
 * Encodes `discriminator ++ u64 LE amount ++ 16 plan-id bytes` (Anchor/Borsh layout of
 * `fn <name>(ctx, amount: u64, plan_id: [u8; 16])`).
 */
export function encodeRouterInstructionData(data: RouterInstructionData): Buffer {
  if (data.amountMicros <= 0n || data.amountMicros > U64_MAX) {
    throw new RangeError('amountMicros must fit a u64 and be positive');
  }
  const out = Buffer.alloc(ROUTER_INSTRUCTION_DATA_LENGTH);
  routerDiscriminator(data.name).copy(out, 0);
  out.writeBigUInt64LE(data.amountMicros, 8);
  Buffer.from(planIdToBytes(data.planId)).copy(out, 16);
  return out;
}

/** Decodes router instruction data; undefined when it is not one of ours. */
export function decodeRouterInstructionData(data: Uint8Array): RouterInstructionData | undefined {
  if (data.length !== ROUTER_INSTRUCTION_DATA_LENGTH) return undefined;
  const bytes = Buffer.from(data);
  const name = ROUTER_INSTRUCTIONS.find((candidate) =>
    routerDiscriminator(candidate).equals(bytes.subarray(0, 8)),
  );
  const planId = planIdFromBytes(new Uint8Array(bytes.subarray(16, 32)));
  if (!name || !planId) return undefined;
  return { name, amountMicros: bytes.readBigUInt64LE(8), planId };
}
