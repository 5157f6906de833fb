import type { Books, WebhookEventsViewer } from '@yieldrouter/ledger';
import { readWebhookEventsPage } from '@yieldrouter/ledger';
import type { WebhookEventType, WebhookEventsPage } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { buildWebhookEnvelope } from './buildWebhookEnvelope';

const CURSOR_PREFIX = 'evt:';

const encodeCursor = (seq: bigint) =>
  Buffer.from(`${CURSOR_PREFIX}${seq.toString(10)}`).toString('base64url');

function decodeCursor(cursor: string): bigint {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const digits = text.slice(CURSOR_PREFIX.length);
  if (!text.startsWith(CURSOR_PREFIX) || !/^[1-9][0-9]{0,18}$/.test(digits)) {
    throw new EngineError(
      'BAD_REQUEST',
      'query.cursor: not a cursor from this API',
      'query.cursor',
    );
  }
  return BigInt(digits);
}

export interface ListWebhookEventsQuery {
  readonly cursor?: string | undefined;
  readonly limit?: number | undefined;
  readonly type?: WebhookEventType | undefined;
  /** A canonical ledger wallet, already checked against the viewer's wallets. */
  readonly wallet?: string | undefined;
}

/**
 * GET /svc/webhooks/events: the events the viewer may see, newest first (its wallets' events
 * and market-wide ones), each as the envelope delivered, with every delivery and attempt the
 * viewer may see (see `readWebhookEventsPage`). 50 per page by default; `nextCursor` continues.
 */
export async function listWebhookEvents(
  db: Books,
  viewer: WebhookEventsViewer,
  query: ListWebhookEventsQuery,
): Promise<WebhookEventsPage> {
  const page = await readWebhookEventsPage(db, viewer, {
    limit: query.limit ?? 50,
    ...(query.cursor ? { beforeSeq: decodeCursor(query.cursor) } : {}),
    ...(query.type ? { type: query.type } : {}),
    ...(query.wallet ? { wallet: query.wallet } : {}),
  });
  const events = page.events.map((event) => ({
    event: buildWebhookEnvelope(event),
    wallet: event.wallet,
    deliveries: event.deliveries.map((delivery) => ({
      id: delivery.id,
      subscriptionId: delivery.subscriptionId,
      status: delivery.status,
      attemptCount: delivery.attempts,
      nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
      deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
      lastError: delivery.lastError,
      attempts: delivery.attemptLog.map((attempt) => ({
        attempt: attempt.attempt,
        startedAt: attempt.startedAt.toISOString(),
        httpStatus: attempt.httpStatus,
        latencyMs: attempt.latencyMs,
        error: attempt.error,
      })),
    })),
  }));
  return {
    schemaVersion: 'svc-webhook-events.v1',
    count: events.length,
    events,
    nextCursor: page.next === null ? null : encodeCursor(page.next),
  };
}
