import { planIdToBytes } from '@yieldrouter/schemas';
import type { CageAction } from '@yieldrouter/schemas';
import { bytesToHex, encodeFunctionData } from 'viem';
import type { Address, Hex } from 'viem';
import { cageAbi } from './cageAbi';

/** One cage action, its addresses already checked (the engine checks the locks first). */
export type CageCall =
  | { readonly kind: 'ROUTE'; readonly venue: Address }
  | {
      readonly kind: 'EXIT' | 'HARVEST' | 'COMPOUND';
      readonly venue: Address;
      readonly to: Address;
    }
  | { readonly kind: 'REBALANCE'; readonly fromVenue: Address; readonly toVenue: Address }
  | { readonly kind: 'AUTOPAY'; readonly venue: Address; readonly payee: Address };

export interface EncodeCageActionParameters {
  readonly planId: string;
  readonly owner: Address;
  readonly amount: bigint;
  readonly call: CageCall;
}

const FUNCTION_OF = {
  EXIT: 'exit',
  HARVEST: 'harvest',
  COMPOUND: 'compound',
} as const satisfies Partial<Record<CageAction, string>>;

/**
 * The calldata of a cage action: the plan id (16 bytes) first, so the contract's
 * `ActionExecuted` event carries it.
 *
 * @example
 * encodeCageAction({ planId, owner, amount: 5_000_000n, call: { kind: 'ROUTE', venue } })
 */
export function encodeCageAction({ planId, owner, amount, call }: EncodeCageActionParameters): Hex {
  const id = bytesToHex(planIdToBytes(planId));
  switch (call.kind) {
    case 'ROUTE':
      return encodeFunctionData({
        abi: cageAbi,
        functionName: 'route',
        args: [id, owner, call.venue, amount],
      });
    case 'REBALANCE':
      return encodeFunctionData({
        abi: cageAbi,
        functionName: 'rebalance',
        args: [id, owner, call.fromVenue, call.toVenue, amount],
      });
    case 'AUTOPAY':
      return encodeFunctionData({
        abi: cageAbi,
        functionName: 'autopay',
        args: [id, owner, call.venue, call.payee, amount],
      });
    default:
      return encodeFunctionData({
        abi: cageAbi,
        functionName: FUNCTION_OF[call.kind],
        args: [id, owner, call.venue, amount, call.to],
      });
  }
}

export interface EncodeCagePolicyParameters {
  readonly planId: string;
  readonly enabled: boolean;
  readonly skimBps: number;
  readonly agent: Address | null;
  readonly venues: readonly Address[];
  readonly payees: readonly Address[];
}

/**
 * The calldata of `setPolicy`: the contract keys policies by the sender, so only the owner's
 * own signature can change the owner's policy.
 *
 * @example
 * encodeCagePolicy({ planId, enabled: true, skimBps: 500, agent: null, venues: [vault], payees: [] })
 */
export function encodeCagePolicy(parameters: EncodeCagePolicyParameters): Hex {
  return encodeFunctionData({
    abi: cageAbi,
    functionName: 'setPolicy',
    args: [
      bytesToHex(planIdToBytes(parameters.planId)),
      parameters.enabled,
      parameters.skimBps,
      parameters.agent ?? '0x0000000000000000000000000000000000000000',
      parameters.venues,
      parameters.payees,
    ],
  });
}
