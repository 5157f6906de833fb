import { JsonRpcError } from '@mysten/sui/jsonRpc';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, normalizeSuiAddress } from '@mysten/sui/utils';
import { verifyTransactionSignature } from '@mysten/sui/verify';
import type { BroadcastResult, SignedTransaction } from '@yieldrouter/schemas';
import { describeBlockerCode, InvalidChainInputError } from '@yieldrouter/schemas';
import type { ResolvedSuiConfig } from './config';
import { SuiBadResponseError } from './errors';
import { rpcNotConfigured, suiRpcFailure } from './rpc';
import { readExecutedDigest } from './shapes';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

interface DecodedTransaction {
  readonly bytes: Uint8Array;
  readonly sender: string;
  readonly gasOwner: string;
}

function decode(transaction: string): DecodedTransaction {
  if (transaction.length === 0 || !BASE64.test(transaction)) {
    throw new InvalidChainInputError('transaction', 'transaction: must be base64 Sui tx bytes');
  }
  const bytes = fromBase64(transaction);
  let data: TransactionDataBuilder;
  try {
    data = TransactionDataBuilder.fromBytes(bytes);
  } catch {
    throw new InvalidChainInputError('transaction', 'transaction: not Sui TransactionData bytes');
  }
  if (!data.sender) throw new InvalidChainInputError('transaction', 'transaction: no sender');
  const sender = normalizeSuiAddress(data.sender);
  return { bytes, sender, gasOwner: normalizeSuiAddress(data.gasData.owner ?? sender) };
}

/** Why the signatures cannot go out, or undefined when the sender (and sponsor) signed these bytes. */
async function signatureProblem(
  decoded: DecodedTransaction,
  signatures: readonly string[],
  client: SuiJsonRpcClient | undefined,
): Promise<string | undefined> {
  if (signatures.length === 0) return 'no signatures: the owner signs Sui transactions';
  const signers = new Set<string>();
  for (const [index, signature] of signatures.entries()) {
    try {
      const options = client ? { client } : {};
      const key = await verifyTransactionSignature(decoded.bytes, signature, options);
      signers.add(normalizeSuiAddress(key.toSuiAddress()));
    } catch {
      return `signature ${index} is not a valid signature over these transaction bytes`;
    }
  }
  if (!signers.has(decoded.sender)) return 'the sender did not sign these transaction bytes';
  if (!signers.has(decoded.gasOwner)) return 'the gas owner did not sign these transaction bytes';
  return undefined;
}

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
  const decoded = decode(signed.transaction);
  const signatures = signed.signatures ?? [];
  const problem = await signatureProblem(decoded, signatures, client);
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
