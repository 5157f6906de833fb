import { z } from 'zod';

/** The seven webhook event types (SPEC §Events). */
export const WebhookEventType = z.enum([
  'deposit.settled',
  'withdraw.settled',
  'harvest.completed',
  'bridge.delivered',
  'bridge.failed',
  'position.updated',
  'apy.updated',
]);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** Version of the envelope and payloads; a breaking change gets a new version. */
export const WEBHOOK_EVENT_SCHEMA_VERSION = 'svc-webhook-event.v1';
