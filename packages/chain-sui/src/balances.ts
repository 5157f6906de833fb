import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { AssetBalance, Unavailable } from '@yieldrouter/schemas';
import { USDC_DECIMALS } from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';
import type { ResolvedSuiConfig } from './config';
import { SUI_COIN_TYPE, SUI_DECIMALS } from './config';
import { rpcNotConfigured, suiRpcFailure } from './rpc';
import { readTotalBalance } from './shapes';

/** The total balance of one coin type in base units, or `unavailable` with the reason. */
export async function readCoinBalance(
  client: SuiJsonRpcClient | undefined,
  owner: string,
  coinType: string,
  what: string,
): Promise<{ status: 'ok'; amount: bigint } | Unavailable> {
  if (!client) return rpcNotConfigured(what);
  try {
    return { status: 'ok', amount: readTotalBalance(await client.getBalance({ owner, coinType })) };
  } catch (error) {
    return suiRpcFailure(error, what);
  }
}

async function leg(
  client: SuiJsonRpcClient | undefined,
  owner: string,
  asset: string,
  decimals: number,
  coinType: string | undefined,
): Promise<AssetBalance> {
  if (coinType === undefined) {
    return {
      asset,
      decimals,
      status: 'unavailable',
      reason: 'asset_not_configured',
      detail: `${asset} balance: the ${asset} coin type is not configured`,
    };
  }
  const read = await readCoinBalance(client, owner, coinType, `${asset} balance`);
  return read.status === 'ok'
    ? { asset, decimals, status: 'ok', amount: read.amount }
    : { asset, decimals, ...read };
}

/**
 * SUI (mist, 9 decimals) and USDC (micros, 6 decimals) of `address`. Each leg fails on its own:
 * a failed read is `unavailable` with a reason, never 0.
 */
export async function readSuiBalances(
  client: SuiJsonRpcClient | undefined,
  config: ResolvedSuiConfig,
  address: string,
): Promise<readonly AssetBalance[]> {
  const owner = requireSuiAddress('address', address);
  return Promise.all([
    leg(client, owner, 'SUI', SUI_DECIMALS, SUI_COIN_TYPE),
    leg(client, owner, 'USDC', USDC_DECIMALS, config.usdcCoinType),
  ]);
}
