import type { Books } from '@yieldrouter/ledger';
import { listWebhookSubscriptions } from '@yieldrouter/ledger';
import type { WebhookEventTypesDocument, WebhookList } from '@yieldrouter/schemas';
import {
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_SCHEMA_VERSION,
  WebhookEventType,
} from '@yieldrouter/schemas';
import { webhookDocument } from './webhookDocument';

/** The owner key's live subscriptions, oldest first; keys are never shown. */
export async function listWebhooks(db: Books, ownerKeyId: string): Promise<WebhookList> {
  const webhooks = (await listWebhookSubscriptions(db, ownerKeyId)).map(webhookDocument);
  return { schemaVersion: 'svc-webhooks.v1', count: webhooks.length, webhooks };
}

/** GET /svc/webhooks/events/types: the event types with what each means. */
export function buildWebhookEventTypesDocument(): WebhookEventTypesDocument {
  const eventTypes = WebhookEventType.options.map((type) => ({
    type,
    description: WEBHOOK_EVENT_DESCRIPTIONS[type],
  }));
  return {
    schemaVersion: 'svc-webhook-event-types.v1',
    eventSchemaVersion: WEBHOOK_EVENT_SCHEMA_VERSION,
    count: eventTypes.length,
    eventTypes,
  };
}
