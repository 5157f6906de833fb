import { planIdFromBytes, planIdToBytes } from '@yieldrouter/schemas';
import { bytesToHex, hexToBytes } from 'viem';
import type { Hex } from 'viem';

/** 'SVC1' in ASCII: marks the 20-byte plan tag at the end of a leg's calldata. */
export const PLAN_TAG_MAGIC = '0x53564331';
const TAG_HEX_LENGTH = 2 * (4 + 16);

/**
 * `data` with the plan tag appended: the 4 magic bytes 'SVC1' then the 16 bytes of the plan id.
 * Solidity's ABI decoder ignores calldata past the arguments, so the call is unchanged.
 *
 * @example
 * appendPlanTag('0x095ea7b3…', 'plan_00112233445566778899aabbccddeeff')
 * // '0x095ea7b3…5356433100112233445566778899aabbccddeeff'
 */
export function appendPlanTag(data: Hex, planId: string): Hex {
  return `${data}${PLAN_TAG_MAGIC.slice(2)}${bytesToHex(planIdToBytes(planId)).slice(2)}`;
}

/** The plan id tagged at the end of `data`, or undefined when the calldata carries no tag. */
export function readPlanTag(data: string): string | undefined {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(data) || data.length - 2 < TAG_HEX_LENGTH) return undefined;
  const tag = data.slice(data.length - TAG_HEX_LENGTH).toLowerCase();
  if (tag.slice(0, 8) !== PLAN_TAG_MAGIC.slice(2)) return undefined;
  return planIdFromBytes(hexToBytes(`0x${tag.slice(8)}`));
}
