import { z } from 'zod';
import { WEBHOOK_EVENT_SCHEMA_VERSION, WebhookEventType } from './webhookEventType';
import { WebhookEvent } from './webhookEvents';

/** Documents of the webhook routes. Keys appear only in the create and rotate answers. */

export const WebhookEventTypesDocument = z.object({
  schemaVersion: z.literal('svc-webhook-event-types.v1'),
  eventSchemaVersion: z.literal(WEBHOOK_EVENT_SCHEMA_VERSION),
  count: z.number().int(),
  eventTypes: z.array(z.object({ type: WebhookEventType, description: z.string() })),
});
export type WebhookEventTypesDocument = z.infer<typeof WebhookEventTypesDocument>;

export const WebhookSubscription = z.object({
  id: z.string().meta({ description: 'whk_ + 32 hex.' }),
  url: z.string(),
  eventTypes: z.array(WebhookEventType),
  description: z.string().nullable(),
  wallets: z.array(z.string()).meta({
    description:
      "The creating key's wallets ('*' = every wallet): events of other wallets are not sent. Events without a wallet (apy.updated) go to every subscription of their type.",
  }),
  createdAt: z.string(),
  rotatedAt: z.string().nullable(),
  previousKeyExpiresAt: z.string().nullable().meta({
    description:
      'After a rotation: until this time deliveries carry a v1= signature under the previous key too.',
  }),
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

export const WebhookWithKey = WebhookSubscription.extend({
  hmacKey: z.string().meta({
    description:
      'The signing key: shown in this answer only (stored encrypted, never shown again). X-SVC-Signature v1 = hex HMAC-SHA256 under this key of `<t>.<raw body>`.',
  }),
});
export type WebhookWithKey = z.infer<typeof WebhookWithKey>;

export const WebhookList = z.object({
  schemaVersion: z.literal('svc-webhooks.v1'),
  count: z.number().int(),
  webhooks: z.array(WebhookSubscription),
});
export type WebhookList = z.infer<typeof WebhookList>;

export const WebhookDeleted = z.object({
  id: z.string(),
  deleted: z.literal(true),
  deletedAt: z.string(),
});
export type WebhookDeleted = z.infer<typeof WebhookDeleted>;

export const WebhookAttemptRecord = z.object({
  attempt: z.number().int(),
  startedAt: z.string(),
  httpStatus: z.number().int().nullable().meta({ description: 'Null when no answer came.' }),
  latencyMs: z.number().int(),
  error: z.string().nullable(),
});

export const WebhookDeliveryRecord = z.object({
  id: z.string(),
  subscriptionId: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']).meta({
    description: 'failed is final: the retry schedule ran out, or the subscription was deleted.',
  }),
  attemptCount: z.number().int(),
  nextAttemptAt: z.string().nullable().meta({ description: 'While pending.' }),
  deliveredAt: z.string().nullable(),
  lastError: z.string().nullable(),
  attempts: z.array(WebhookAttemptRecord),
});

export const WebhookEventsPage = z.object({
  schemaVersion: z.literal('svc-webhook-events.v1'),
  count: z.number().int(),
  events: z.array(
    z.object({
      event: WebhookEvent.meta({ description: 'The body as delivered.' }),
      wallet: z.string().nullable(),
      deliveries: z.array(WebhookDeliveryRecord),
    }),
  ),
  nextCursor: z.string().nullable(),
});
export type WebhookEventsPage = z.infer<typeof WebhookEventsPage>;
