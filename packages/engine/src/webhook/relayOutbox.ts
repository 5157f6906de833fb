import type { Books } from '@yieldrouter/ledger';
import { fanOutOutbox } from '@yieldrouter/ledger';
import type { FanOutOutboxReturnType } from '@yieldrouter/ledger';

/**
 * Turns committed outbox events into deliveries (one per matching subscription), in outbox
 * order, each event once; see `fanOutOutbox`. A keeper job: run it often; concurrent runs are
 * harmless (one does the work, the others return nothing).
 *
 * @example
 * const { events, deliveryIds } = await relayOutbox(prisma);
 */
export function relayOutbox(
  db: Books,
  { limit = 500, now = new Date() }: { limit?: number; now?: Date } = {},
): Promise<FanOutOutboxReturnType> {
  return fanOutOutbox(db, { limit, now });
}
