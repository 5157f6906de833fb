import type { Unavailable } from '@yieldrouter/schemas';
import type { Address } from 'viem';
import { erc20Abi } from './abis';
import { callView } from './callView';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { toUnavailable } from './toUnavailable';

export interface ReadEvmAllowanceParameters {
  readonly token: Address;
  readonly owner: Address;
  readonly spender: Address;
}

export type ReadEvmAllowanceReturnType =
  { readonly status: 'ok'; readonly allowance: bigint } | Unavailable;

/**
 * `token.allowance(owner, spender)`, fail-closed: an RPC that is unset, slow or garbled is
 * `unavailable` (never a guessed allowance).
 *
 * @example
 * await readEvmAllowance(context, { token: usdc, owner, spender }) // { status: 'ok', allowance: 0n }
 */
export async function readEvmAllowance(
  context: EvmContext,
  { token, owner, spender }: ReadEvmAllowanceParameters,
): Promise<ReadEvmAllowanceReturnType> {
  const what = `allowance of ${spender} on ${token} on ${context.label}`;
  if (!context.rpc) return rpcNotConfigured(context, what);
  try {
    const allowance = await callView(context.rpc, token, erc20Abi, 'allowance', [owner, spender]);
    return { status: 'ok', allowance };
  } catch (error) {
    return toUnavailable(error, what);
  }
}
