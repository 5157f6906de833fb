import type { WebhookSubscriptionRecord } from '@yieldrouter/ledger';
import type { WebhookSubscription } from '@yieldrouter/schemas';

/** A subscription as the API shows it (never a key). */
export function webhookDocument(record: WebhookSubscriptionRecord): WebhookSubscription {
  return {
    id: record.id,
    url: record.url,
    eventTypes: [...record.eventTypes],
    description: record.description,
    wallets: [...record.wallets],
    createdAt: record.createdAt.toISOString(),
    rotatedAt: record.rotatedAt?.toISOString() ?? null,
    previousKeyExpiresAt: record.previousKeyExpiresAt?.toISOString() ?? null,
  };
}
