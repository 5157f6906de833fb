import type {
  ClaimedDelivery,
  DeliveryOutcome,
  Books,
  RecordDeliveryAttemptParameters,
} from '@yieldrouter/ledger';
import { recordDeliveryAttempts } from '@yieldrouter/ledger';
import {
  WebhookKeyError,
  deliverWebhook,
  resolveWebhookUrl,
  scheduleNextAttempt,
} from '@yieldrouter/webhooks/server';
import type { DeliverWebhookReturnType } from '@yieldrouter/webhooks/server';
import { buildWebhookEnvelope } from './buildWebhookEnvelope';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from './webhookSender';
import type { WebhookSender } from './webhookSender';

/** What one attempt came to; `lost` when the lease had passed and another sender took over. */
export interface DeliveryAttemptResult {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly status: DeliveryOutcome['status'] | 'lost';
  readonly attempt: number;
  readonly httpStatus: number | null;
  readonly error: string | null;
}

/** The keys a delivery is signed with at `now`: current first, the previous one in its window. */
function signingKeys(claimed: ClaimedDelivery, sender: WebhookSender, now: Date): string[] {
  const keys = [sender.cipher.decrypt(claimed.keySealed, claimed.subscriptionId)];
  if (
    claimed.previousKeySealed !== null &&
    claimed.previousKeyExpiresAt !== null &&
    claimed.previousKeyExpiresAt.getTime() > now.getTime()
  ) {
    keys.push(sender.cipher.decrypt(claimed.previousKeySealed, claimed.subscriptionId));
  }
  return keys;
}

async function send(
  claimed: ClaimedDelivery,
  sender: WebhookSender,
  startedAt: Date,
): Promise<DeliverWebhookReturnType> {
  const refused = (error: string) => ({ ok: false, status: null, latencyMs: 0, error });
  const target = await resolveWebhookUrl(claimed.url, {
    ...sender.urlPolicy,
    ...(sender.lookup ? { lookup: sender.lookup } : {}),
  });
  if (!target.ok) return refused(`url refused: ${target.reason}`);
  let keys: string[];
  try {
    keys = signingKeys(claimed, sender, startedAt);
  } catch (error) {
    if (!(error instanceof WebhookKeyError)) throw error;
    return refused('signing key cannot be opened (is the webhook key secret the same as the API?)');
  }
  return deliverWebhook({
    url: claimed.url,
    body: JSON.stringify(buildWebhookEnvelope(claimed.event)),
    eventId: claimed.event.id,
    eventType: claimed.event.type,
    keys,
    now: startedAt,
    timeoutMs: sender.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    allowPrivate: sender.urlPolicy.allowPrivate,
    ...(sender.fetch ? { fetch: sender.fetch } : {}),
  });
}

/** An attempt made and not recorded yet: what to record, and what to report. */
export interface SentAttempt {
  readonly record: RecordDeliveryAttemptParameters;
  readonly result: DeliveryAttemptResult;
}

/**
 * One attempt at a claimed delivery, without recording it: the URL is checked again (DNS
 * included, and the connection itself only goes to public addresses unless the policy allows
 * private ones), the keys are opened (both during a rotation overlap), the envelope is POSTed
 * and signed, and the delivery's next state is decided: `delivered` on a 2xx, else `pending` at
 * the next time of the retry schedule, or `failed` once it has run out.
 */
export async function sendClaimedDelivery(
  claimed: ClaimedDelivery,
  sender: WebhookSender,
): Promise<SentAttempt> {
  const clock = sender.now ?? (() => new Date());
  const startedAt = clock();
  const result = await send(claimed, sender, startedAt);
  const attempt = claimed.attempts + 1;
  let outcome: DeliveryOutcome = { status: 'delivered' };
  if (!result.ok) {
    const nextAttemptAt = scheduleNextAttempt({
      attempt,
      eventCreatedAt: claimed.event.createdAt,
      now: clock(),
      random: (sender.random ?? Math.random)(),
    });
    outcome = nextAttemptAt ? { status: 'pending', nextAttemptAt } : { status: 'failed' };
  }
  return {
    record: {
      deliveryId: claimed.id,
      claimToken: claimed.claimToken,
      startedAt,
      httpStatus: result.status,
      latencyMs: result.latencyMs,
      error: result.error,
      outcome,
    },
    result: {
      deliveryId: claimed.id,
      eventId: claimed.event.id,
      status: outcome.status,
      attempt,
      httpStatus: result.status,
      error: result.error,
    },
  };
}

/**
 * Records attempts made under one claim, in one statement; an attempt whose claim was lost
 * (its lease passed and another sender took over) comes back as `lost`.
 */
export async function recordSentAttempts(
  db: Books,
  sent: readonly SentAttempt[],
): Promise<DeliveryAttemptResult[]> {
  const recorded = await recordDeliveryAttempts(
    db,
    sent.map((entry) => entry.record),
  );
  return sent.map((entry, index) =>
    recorded[index] === null ? { ...entry.result, status: 'lost' } : entry.result,
  );
}
