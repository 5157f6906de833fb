import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { LegChangesReading } from '@yieldrouter/schemas';
import bs58 from 'bs58';
import { SolanaBadResponseError, describeRpcFailure, rpcNotConfigured } from './describeRpcFailure';
import type { SolanaContext } from './solanaContext';
import { tokenAccountChanges, tokenBalanceStates } from './solanaTokenChanges';

/**
 * What a landed Solana transaction moved (issue 44's settlement check): its `preTokenBalances`
 * and `postTokenBalances` (`getTransaction` at `confirmed`), per token account, with the same
 * reading as `simulateSolanaLegs` (`account` the token account, `holder` its owner, `asset` the
 * mint). Not found yet → `pending`; no RPC or one that fails → `unavailable`.
 *
 * @throws InvalidChainInputError for a txId that is not a base58 signature.
 */
export async function readSolanaLegChanges(
  context: SolanaContext,
  txId: string,
): Promise<LegChangesReading> {
  if (bs58.decodeUnsafe(txId)?.length !== 64) {
    throw new InvalidChainInputError('txId', 'txId: not a base58 Solana transaction signature');
  }
  const what = `the token balances ${txId} changed`;
  if (context.rpc.status !== 'ok') return rpcNotConfigured(what, context.rpc.detail);
  try {
    const response = await context.rpc.connection.getTransaction(txId, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    if (!response) return { status: 'pending' };
    const { meta } = response;
    if (!meta?.preTokenBalances || !meta.postTokenBalances) {
      throw new SolanaBadResponseError('the transaction has no token balances');
    }
    const keys = response.transaction.message.getAccountKeys({
      accountKeysFromLookups: meta.loadedAddresses ?? null,
    });
    const changes = tokenAccountChanges(
      tokenBalanceStates(meta.preTokenBalances, keys),
      tokenBalanceStates(meta.postTokenBalances, keys),
    );
    return { status: 'ok', changes, block: String(response.slot) };
  } catch (error) {
    return describeRpcFailure(error, what);
  }
}
