import { BASE64 } from '@yieldrouter/schemas';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type * as SuiVerify from '@mysten/sui/verify';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, normalizeSuiAddress } from '@mysten/sui/utils';
import { InvalidChainInputError } from '@yieldrouter/schemas';

// Owner-signed Sui bytes: decoding them and checking their signatures (broadcast and the leg
// check share these; no RPC call unless a zkLogin signature needs the client).

export interface DecodedSuiTransaction {
  readonly bytes: Uint8Array;
  readonly data: TransactionDataBuilder;
  readonly sender: string;
  readonly gasOwner: string;
}

// The SDK's verifier (every signature scheme, zkLogin's Poseidon constants among them: the
// largest part of the Sui SDK to load) is loaded by the first signature check, not with the
// adapter: most processes that build the adapter never check a Sui signature.
let verifier: Promise<typeof SuiVerify> | undefined;
const loadVerifier = () => (verifier ??= import('@mysten/sui/verify'));

/** Base64 Sui TransactionData bytes with their sender; anything else is `InvalidChainInputError`. */
export function decodeSignedSui(transaction: string): DecodedSuiTransaction {
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
  return { bytes, data, sender, gasOwner: normalizeSuiAddress(data.gasData.owner ?? sender) };
}

/** Why the signatures cannot go out, or undefined when the sender (and sponsor) signed these bytes. */
export async function suiSignatureProblem(
  decoded: DecodedSuiTransaction,
  signatures: readonly string[],
  client: SuiJsonRpcClient | undefined,
): Promise<string | undefined> {
  if (signatures.length === 0) return 'no signatures: the owner signs Sui transactions';
  const { verifyTransactionSignature } = await loadVerifier();
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
