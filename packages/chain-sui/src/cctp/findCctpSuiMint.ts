import type { EventId } from '@mysten/sui/jsonRpc';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { Unavailable } from '@yieldrouter/schemas';
import { rpcNotConfigured, suiRpcFailure } from '../rpc';
import type { CctpSuiReadContext } from './readCctpSuiReceipts';

/** Where a CCTP message was received on Sui, if it was. */
export type CctpSuiMintSearch =
  | { readonly status: 'found'; readonly txId: string }
  | { readonly status: 'not_found' }
  | Unavailable;

const PAGE = 50;

const integer = (value: unknown) =>
  (typeof value === 'string' && /^\d+$/.test(value)) || Number.isSafeInteger(value)
    ? BigInt(value as string | number)
    : undefined;

/**
 * The transaction that received a CCTP message on Sui, whoever relayed it: the newest
 * `receive_message::MessageReceived` events of the configured package (`suix_queryEvents`,
 * newest first, up to `lookbackEvents`) with this nonce and source domain. None → not_found; the
 * node unreadable → unavailable (never a guess). The caller reads the found transaction as any
 * reported mint (`readCctpSuiMint`).
 *
 * @throws InvalidChainInputError for a malformed nonce.
 */
export async function findCctpSuiMint(
  context: CctpSuiReadContext,
  query: { readonly nonce: string; readonly sourceDomain: number; readonly lookbackEvents: number },
): Promise<CctpSuiMintSearch> {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(query.nonce)) {
    throw new InvalidChainInputError('nonce', 'nonce: must be 0x + hex');
  }
  if (!context.client) return rpcNotConfigured('mint search');
  const nonce = BigInt(query.nonce);
  const type = `${context.ids.messageTransmitterPackage}::receive_message::MessageReceived`;
  let cursor: EventId | null = null;
  try {
    for (let seen = 0; seen < query.lookbackEvents; seen += PAGE) {
      const page = await context.client.queryEvents({
        query: { MoveEventType: type },
        cursor,
        limit: PAGE,
        order: 'descending',
      });
      const found = page.data.find((event) => {
        const json = (event.parsedJson ?? {}) as Record<string, unknown>;
        return (
          integer(json['nonce']) === nonce &&
          integer(json['source_domain']) === BigInt(query.sourceDomain)
        );
      });
      if (found) return { status: 'found', txId: found.id.txDigest };
      if (!page.hasNextPage || !page.nextCursor) break;
      cursor = page.nextCursor;
    }
    return { status: 'not_found' };
  } catch (error) {
    return suiRpcFailure(error, 'mint search');
  }
}
