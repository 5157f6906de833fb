import type { LegAction, LegRequest, UnsignedLeg } from '@yieldrouter/schemas';
import type { Address, Hex } from 'viem';
import type { EvmContext } from './evmContext';
import { appendPlanTag } from './planTag';

export interface EvmLegParameters {
  readonly action: LegAction;
  readonly to: Address;
  /** ABI-encoded call; the plan tag is appended here. */
  readonly call: Hex;
  readonly summary: string;
  /** Wei the call pays (a wrap's `deposit()`); 0 when absent. */
  readonly value?: bigint;
}

/**
 * One unsigned leg: an `evm-transaction-request` from the owner (no value unless given), calldata tagged
 * with the plan. Only deposits and withdrawals settle; an approve moves no money.
 *
 * @example
 * evmLeg(context, request, owner, { action: 'approve', to: usdc, call, summary: 'Approve …' })
 */
export function evmLeg(
  context: EvmContext,
  request: Pick<LegRequest, 'planId' | 'amountMicros'>,
  owner: Address,
  { action, to, call, summary, value }: EvmLegParameters,
): UnsignedLeg {
  return {
    chain: context.chain,
    action,
    summary,
    planId: request.planId,
    amountMicros: request.amountMicros,
    settles: action !== 'approve',
    payload: {
      encoding: 'evm-transaction-request',
      transaction: {
        chainId: context.chainId,
        from: owner,
        to,
        data: appendPlanTag(call, request.planId),
        value: (value ?? 0n).toString(10),
      },
    },
  };
}
