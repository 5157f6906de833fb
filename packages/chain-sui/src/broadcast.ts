import { JsonRpcError } from '@mysten/sui/jsonRpc';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import type { BroadcastResult, SignedTransaction } from '@yieldrouter/schemas';
import { describeBlockerCode } from '@yieldrouter/schemas';
import type { ResolvedSuiConfig } from './config';
import { SuiBadResponseError } from './errors';
import { rpcNotConfigured, suiRpcFailure } from './rpc';
import { readExecutedDigest } from './shapes';
import { decodeSignedSui, suiSignatureProblem } from './signedBytes';

/**
 * Submits owner-signed bytes when broadcast is enabled. Every signature is checked against the
 * bytes (and the sender's must be there) before any RPC call. A node that refuses the transaction
 * gives `rejected`; a node that does not answer gives `unavailable` (the transaction may still
 * land under the digest in the detail).
 */
export async function broadcastSui(
  client: SuiJsonRpcClient | undefined,
  config: ResolvedSuiConfig,
  signed: SignedTransaction,
): Promise<BroadcastResult> {
  if (!config.broadcastEnabled) {
    return {
      status: 'refused',
      blocker: { code: 'broadcast_disabled', message: describeBlockerCode('broadcast_disabled') },
    };
  }
  const decoded = decodeSignedSui(signed.transaction);
  const signatures = signed.signatures ?? [];
  const problem = await suiSignatureProblem(decoded, signatures, client);
  if (problem !== undefined) return { status: 'rejected', reason: problem };
  if (!client) return rpcNotConfigured('broadcast');

  const digest = TransactionDataBuilder.getDigestFromBytes(decoded.bytes);
  try {
    const response = await client.executeTransactionBlock({
      transactionBlock: decoded.bytes,
      signature: [...signatures],
    });
    if (readExecutedDigest(response) !== digest) {
      throw new SuiBadResponseError('the RPC reported another digest for these bytes');
    }
    return { status: 'submitted', txId: digest };
  } catch (error) {
    if (error instanceof JsonRpcError) return { status: 'rejected', reason: error.message };
    const failure = suiRpcFailure(error, 'broadcast');
    return { ...failure, detail: `${failure.detail} (the transaction may still land: ${digest})` };
  }
}
