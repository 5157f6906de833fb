import { InvalidChainInputError, USDC_DECIMALS } from '@yieldrouter/schemas';
import type { AssetBalance } from '@yieldrouter/schemas';
import type { PublicKey } from '@solana/web3.js';
import { describeRpcFailure, rpcNotConfigured } from './describeRpcFailure';
import { parsePublicKey } from './parsePublicKey';
import { readTokenTotal } from './readTokenTotal';
import type { SolanaContext } from './solanaContext';

const SOL_DECIMALS = 9;

async function readSol(context: SolanaContext, owner: PublicKey): Promise<AssetBalance> {
  const leg = { asset: 'SOL', decimals: SOL_DECIMALS } as const;
  if (context.rpc.status !== 'ok')
    return { ...leg, ...rpcNotConfigured('SOL balance', context.rpc.detail) };
  try {
    const { value } = await context.rpc.connection.getBalanceAndContext(owner, 'confirmed');
    return { ...leg, status: 'ok', amount: BigInt(value) };
  } catch (error) {
    return { ...leg, ...describeRpcFailure(error, 'SOL balance') };
  }
}

async function readUsdc(context: SolanaContext, owner: PublicKey): Promise<AssetBalance> {
  const leg = { asset: 'USDC', decimals: USDC_DECIMALS } as const;
  const mint = context.usdcMint;
  if (!mint) {
    return {
      ...leg,
      status: 'unavailable',
      reason: 'asset_not_configured',
      detail: 'USDC balance: no valid USDC mint is configured for Solana',
    };
  }
  if (context.rpc.status !== 'ok')
    return { ...leg, ...rpcNotConfigured('USDC balance', context.rpc.detail) };
  try {
    return {
      ...leg,
      status: 'ok',
      amount: await readTokenTotal(context.rpc.connection, owner, mint),
    };
  } catch (error) {
    return { ...leg, ...describeRpcFailure(error, 'USDC balance') };
  }
}

/**
 * SOL (lamports, 9 decimals) and USDC (micros, 6 decimals: all of the owner's token accounts for
 * the mint) of one wallet. Each leg fails on its own, as `unavailable` with a reason.
 * Throws `InvalidChainInputError` (field `address`) for anything but a base58 32-byte key.
 *
 * @example
 * const [sol, usdc] = await readSolanaBalances(context, 'FeePayer111…');
 */
export async function readSolanaBalances(
  context: SolanaContext,
  address: string,
): Promise<readonly AssetBalance[]> {
  const owner = parsePublicKey(address);
  if (!owner) {
    throw new InvalidChainInputError('address', 'address: not a base58 Solana public key');
  }
  return Promise.all([readSol(context, owner), readUsdc(context, owner)]);
}
