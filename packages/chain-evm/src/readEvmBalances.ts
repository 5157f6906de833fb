import { InvalidChainInputError, USDC_DECIMALS } from '@yieldrouter/schemas';
import type { AssetBalance } from '@yieldrouter/schemas';
import type { Address } from 'viem';
import { erc20Abi } from './abis';
import { callView } from './callView';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { toUnavailable } from './toUnavailable';

const ETH_DECIMALS = 18;

/**
 * ETH (wei, `eth_getBalance`) and USDC (micros, `balanceOf`) of `address`, read in parallel.
 * Each leg fails on its own: one slow call never hides the other's value.
 *
 * @throws InvalidChainInputError (field `address`) when `address` is not an EVM address.
 * @example
 * await readEvmBalances(context, '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045')
 * // [{ asset: 'ETH', decimals: 18, status: 'ok', amount: 10n ** 18n }, { asset: 'USDC', … }]
 */
export async function readEvmBalances(
  context: EvmContext,
  address: string,
): Promise<readonly AssetBalance[]> {
  const owner = normalizeEvmAddress(address);
  if (!owner) {
    throw new InvalidChainInputError(
      'address',
      'address: must be 0x + 40 hex (EIP-55 if mixed case)',
    );
  }
  return Promise.all([readEth(context, owner), readUsdc(context, owner)]);
}

async function readEth(context: EvmContext, owner: Address): Promise<AssetBalance> {
  const leg = { asset: 'ETH', decimals: ETH_DECIMALS } as const;
  const what = `ETH balance on ${context.label}`;
  if (!context.rpc) return { ...leg, ...rpcNotConfigured(context, what) };
  try {
    return { ...leg, status: 'ok', amount: await context.rpc.getBalance(owner) };
  } catch (error) {
    return { ...leg, ...toUnavailable(error, what) };
  }
}

async function readUsdc(context: EvmContext, owner: Address): Promise<AssetBalance> {
  const leg = { asset: 'USDC', decimals: USDC_DECIMALS } as const;
  const what = `USDC balance on ${context.label}`;
  if (!context.usdc) {
    return {
      ...leg,
      status: 'unavailable',
      reason: 'asset_not_configured',
      detail: `${what}: no USDC address is configured`,
    };
  }
  if (!context.rpc) return { ...leg, ...rpcNotConfigured(context, what) };
  try {
    const amount = await callView(context.rpc, context.usdc, erc20Abi, 'balanceOf', [owner]);
    return { ...leg, status: 'ok', amount };
  } catch (error) {
    return { ...leg, ...toUnavailable(error, what) };
  }
}
