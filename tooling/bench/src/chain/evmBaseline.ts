// Bare-SDK equivalents of the EVM adapter's work: viem encoding and raw JSON-RPC reads.
import { encodeFunctionData, erc20Abi, erc4626Abi } from 'viem';
import type { Address } from 'viem';
import { BenchCheckError, expectAmount } from './checks';
import { rawJsonRpc } from './rawJsonRpc';

const APPROVE_SELECTOR = '0x095ea7b3';
const BALANCE_OF_SELECTOR = '0x70a08231';

/**
 * The calldata of an ERC-4626 deposit's two calls, `USDC.approve(vault, amount)` and
 * `vault.deposit(amount, owner)`, with viem alone (no plan tag, summary or checks).
 */
export function encodeErc4626Deposit(vault: Address, owner: Address, amount: bigint): string[] {
  const approve = encodeFunctionData({
    abi: erc20Abi,
    functionName: 'approve',
    args: [vault, amount],
  });
  const deposit = encodeFunctionData({
    abi: erc4626Abi,
    functionName: 'deposit',
    args: [amount, owner],
  });
  if (!approve.startsWith(APPROVE_SELECTOR)) throw new BenchCheckError('viem: bad approve data');
  return [approve, deposit];
}

export interface EvmRawReadParameters {
  readonly rpcUrl: string;
  readonly usdc: Address;
  readonly owner: Address;
  readonly wei: bigint;
  readonly usdcMicros: bigint;
}

/** `eth_getBalance` and `eth_call balanceOf(owner)` in parallel with bare fetch; checks both. */
export async function rawEvmBalances({
  rpcUrl,
  usdc,
  owner,
  wei,
  usdcMicros,
}: EvmRawReadParameters): Promise<void> {
  const data = `${BALANCE_OF_SELECTOR}${owner.slice(2).toLowerCase().padStart(64, '0')}`;
  const [eth, token] = await Promise.all([
    rawJsonRpc(rpcUrl, 'eth_getBalance', [owner, 'latest']),
    rawJsonRpc(rpcUrl, 'eth_call', [{ to: usdc, data }, 'latest']),
  ]);
  expectAmount('raw eth_getBalance', BigInt(String(eth)), wei);
  expectAmount('raw balanceOf', BigInt(String(token)), usdcMicros);
}
