import type { PaginatedEvents } from '@mysten/sui/jsonRpc';
import { normalizeStructTag } from '@mysten/sui/utils';
import { renderEvents } from './render';
import { invalidParams } from './rpcError';
import type { SuiFakeState } from './state';

const canonical = (type: string) => {
  try {
    return normalizeStructTag(type);
  } catch {
    return undefined;
  }
};

/**
 * `suix_queryEvents(query, cursor, limit, descending)` for a `{ MoveEventType }` query, as a
 * node answers it: the events of that type from successful transactions in execution order
 * (newest first when descending), paged by `{ txDigest, eventSeq }` cursors. Other filters →
 * invalid params.
 */
export function queryEvents(state: SuiFakeState, params: readonly unknown[]): PaginatedEvents {
  const [query, cursor, limitArg, descending] = params;
  const wanted =
    query && typeof query === 'object' && 'MoveEventType' in query
      ? canonical(String((query as { MoveEventType: unknown }).MoveEventType))
      : undefined;
  if (!wanted) throw invalidParams('query: only { MoveEventType } is served by the fake');
  const all = [...state.transactions.values()]
    .filter((transaction) => transaction.status === 'success')
    .flatMap((transaction) => renderEvents(transaction))
    .filter((event) => canonical(event.type) === wanted);
  if (descending === true) all.reverse();
  const after =
    cursor && typeof cursor === 'object'
      ? all.findIndex(
          (event) =>
            event.id.txDigest === (cursor as { txDigest?: unknown }).txDigest &&
            event.id.eventSeq === (cursor as { eventSeq?: unknown }).eventSeq,
        ) + 1
      : 0;
  const limit = typeof limitArg === 'number' && limitArg > 0 ? Math.min(limitArg, 50) : 50;
  const data = all.slice(after, after + limit);
  const last = data[data.length - 1];
  return { data, hasNextPage: after + limit < all.length, nextCursor: last ? last.id : null };
}
