import { decodeFunctionResult, encodeFunctionData } from 'viem';
import type {
  Abi,
  Address,
  ContractFunctionArgs,
  ContractFunctionName,
  ContractFunctionReturnType,
  DecodeFunctionResultParameters,
  EncodeFunctionDataParameters,
} from 'viem';
import type { EvmRpc } from './evmRpc';
import { RpcBadResponseError } from './RpcBadResponseError';

type View = 'view' | 'pure';

/** A contract without code answers `0x`: a misconfigured address, not a garbled answer. */
export class NoContractDataError extends Error {
  override readonly name = 'NoContractDataError';
}

/**
 * `eth_call` of a view function, decoded with viem. An answer that does not decode is
 * `RpcBadResponseError`; an empty answer is `NoContractDataError`.
 *
 * @example
 * await callView(rpc, usdc, erc20Abi, 'balanceOf', [owner]) // 12_500_000n
 */
export async function callView<
  const abi extends Abi,
  functionName extends ContractFunctionName<abi, View>,
  const args extends ContractFunctionArgs<abi, View, functionName>,
>(
  rpc: EvmRpc,
  address: Address,
  abi: abi,
  functionName: functionName,
  args: args,
  /** The block to read at; the latest by default. */
  block?: bigint,
): Promise<ContractFunctionReturnType<abi, View, functionName, args>> {
  const data = encodeFunctionData({ abi, functionName, args } as EncodeFunctionDataParameters);
  const answer = await rpc.call(address, data, block);
  if (answer === '0x') {
    throw new NoContractDataError(`${functionName}: no data returned (is ${address} a contract?)`);
  }
  try {
    return decodeFunctionResult({
      abi,
      functionName,
      args,
      data: answer,
    } as DecodeFunctionResultParameters) as ContractFunctionReturnType<
      abi,
      View,
      functionName,
      args
    >;
  } catch {
    throw new RpcBadResponseError(`${functionName}: the answer does not decode`);
  }
}
