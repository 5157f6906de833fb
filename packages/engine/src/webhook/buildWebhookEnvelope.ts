import type { Prisma } from '@yieldrouter/ledger';
import type { WebhookEvent, WebhookEventType } from '@yieldrouter/schemas';
import { WEBHOOK_EVENT_SCHEMA_VERSION } from '@yieldrouter/schemas';

/** An outbox event as the ledger returns it. */
export interface OutboxEventFields {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly payload: Prisma.JsonObject;
  readonly createdAt: Date;
}

/**
 * The body of a delivery (and of an events-page entry): `{ id, type, schemaVersion, createdAt,
 * data }`, data being the payload written with the ledger change. Built the same on every
 * attempt, so retries carry the same bytes apart from the signature.
 *
 * @example
 * const body = JSON.stringify(buildWebhookEnvelope(claimed.event));
 */
export function buildWebhookEnvelope(event: OutboxEventFields): WebhookEvent {
  return {
    id: event.id,
    type: event.type,
    schemaVersion: WEBHOOK_EVENT_SCHEMA_VERSION,
    createdAt: event.createdAt.toISOString(),
    data: event.payload,
  } as WebhookEvent;
}
