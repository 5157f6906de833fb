import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { AllowanceQuery, AllowanceReading } from '@yieldrouter/schemas';
import { erc20Abi } from './abis';
import { callView } from './callView';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { toUnavailable } from './toUnavailable';

export type ReadEvmAllowanceParameters = AllowanceQuery;
export type ReadEvmAllowanceReturnType = AllowanceReading;

/**
 * `token.allowance(owner, spender)`, fail-closed: an RPC that is unset, slow or garbled is
 * `unavailable` (never a guessed allowance).
 *
 * @example
 * await readEvmAllowance(context, { token: usdc, owner, spender }) // { status: 'ok', allowance: 0n }
 */
export async function readEvmAllowance(
  context: EvmContext,
  query: ReadEvmAllowanceParameters,
): Promise<ReadEvmAllowanceReturnType> {
  const token = normalizeEvmAddress(query.token);
  const owner = normalizeEvmAddress(query.owner);
  const spender = normalizeEvmAddress(query.spender);
  if (!token || !owner || !spender) {
    throw new InvalidChainInputError('token', 'token, owner, spender: must be EVM addresses');
  }
  const what = `allowance of ${spender} on ${token} on ${context.label}`;
  if (!context.rpc) return rpcNotConfigured(context, what);
  try {
    const allowance = await callView(context.rpc, token, erc20Abi, 'allowance', [owner, spender]);
    return { status: 'ok', allowance };
  } catch (error) {
    return toUnavailable(error, what);
  }
}
