import { z } from 'zod';

/**
 * The webhook event types: the seven of SPEC §Events, `reconciliation.drift` (the books and
 * the chain disagree beyond the threshold), `auto_pay.paid` (a payee was paid yield) and
 * `plan.divergence` (a settled leg moved USDC otherwise than its plan's simulation) and
 * `plan.simulated` (a deferred Solana or Sui leg was simulated once the leg before it settled).
 */
export const WebhookEventType = z.enum([
  'deposit.settled',
  'withdraw.settled',
  'harvest.completed',
  'bridge.delivered',
  'bridge.failed',
  'position.updated',
  'apy.updated',
  'reconciliation.drift',
  'auto_pay.paid',
  'plan.divergence',
  'plan.simulated',
]);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** Version of the envelope and payloads; a breaking change gets a new version. */
export const WEBHOOK_EVENT_SCHEMA_VERSION = 'svc-webhook-event.v1';
