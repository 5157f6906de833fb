import type { Books } from './books';
import { randomBytes } from 'node:crypto';
import type { OutboxEventType } from './legs';

/** A subscription as its owner may see it: never a key, sealed or not. */
export interface WebhookSubscriptionRecord {
  readonly id: string;
  readonly ownerKeyId: string;
  /** Canonical ledger wallets it covers; `*` = every wallet. */
  readonly wallets: readonly string[];
  readonly url: string;
  readonly eventTypes: readonly OutboxEventType[];
  readonly description: string | null;
  readonly createdAt: Date;
  readonly rotatedAt: Date | null;
  /** While set and in the future, the previous key signs next to the current one. */
  readonly previousKeyExpiresAt: Date | null;
}

/** A new subscription: its record's fields (`id` from {@link newWebhookSubscriptionId}, the
 * sealed key is bound to it), the sealed key, and the time. */
export interface InsertWebhookSubscriptionInput extends Pick<
  WebhookSubscriptionRecord,
  'id' | 'ownerKeyId' | 'wallets' | 'url' | 'eventTypes' | 'description'
> {
  readonly keySealed: string;
  readonly now: Date;
}

/** `whk_` + 32 hex: a subscription id, chosen before its key is sealed. */
export function newWebhookSubscriptionId(): string {
  return `whk_${randomBytes(16).toString('hex')}`;
}

const PUBLIC_COLUMNS = {
  id: true,
  ownerKeyId: true,
  wallets: true,
  url: true,
  eventTypes: true,
  description: true,
  createdAt: true,
  rotatedAt: true,
  previousKeyExpiresAt: true,
} as const;

// Prisma types text[] as string[]; the database CHECK keeps it to the event types.
const toRecord = (row: { eventTypes: string[] } & Omit<WebhookSubscriptionRecord, 'eventTypes'>) =>
  ({ ...row, eventTypes: row.eventTypes as OutboxEventType[] }) satisfies WebhookSubscriptionRecord;

/** Stores a new subscription (its key already sealed). */
export async function insertWebhookSubscription(
  db: Books,
  input: InsertWebhookSubscriptionInput,
): Promise<WebhookSubscriptionRecord> {
  const row = await db.webhookSubscription.create({
    data: {
      id: input.id,
      ownerKeyId: input.ownerKeyId,
      wallets: [...input.wallets],
      url: input.url,
      eventTypes: [...input.eventTypes],
      description: input.description,
      keySealed: input.keySealed,
      createdAt: input.now,
    },
    select: PUBLIC_COLUMNS,
  });
  return toRecord(row);
}

/** The owner's live subscriptions, oldest first. */
export async function listWebhookSubscriptions(
  db: Books,
  ownerKeyId: string,
): Promise<WebhookSubscriptionRecord[]> {
  const rows = await db.webhookSubscription.findMany({
    where: { ownerKeyId, deletedAt: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: PUBLIC_COLUMNS,
  });
  return rows.map(toRecord);
}

/** How many live subscriptions the owner has. */
export async function countWebhookSubscriptions(db: Books, ownerKeyId: string): Promise<number> {
  return db.webhookSubscription.count({ where: { ownerKeyId, deletedAt: null } });
}

export interface RotateWebhookKeyInput {
  readonly id: string;
  readonly ownerKeyId: string;
  /** The new key, sealed for this subscription id. */
  readonly keySealed: string;
  /** How long the key being replaced keeps signing next to the new one. */
  readonly overlapMs: number;
  readonly now: Date;
}

interface SubscriptionRow {
  id: string;
  owner_key_id: string;
  wallets: string[];
  url: string;
  event_types: OutboxEventType[];
  description: string | null;
  created_at: Date;
  rotated_at: Date | null;
  previous_key_expires_at: Date | null;
}

/**
 * Makes `keySealed` the current key; the key it replaces becomes the previous key until
 * `now + overlapMs` (a previous key still in its window is dropped: two keys at most). One
 * statement, so the old key is copied inside the database and two rotations never interleave.
 * Null when the subscription is unknown, deleted, or not this owner's.
 */
export async function rotateWebhookSubscriptionKey(
  db: Books,
  input: RotateWebhookKeyInput,
): Promise<WebhookSubscriptionRecord | null> {
  const expiresAt = new Date(input.now.getTime() + input.overlapMs);
  const [row] = await db.$queryRaw<SubscriptionRow[]>`
    UPDATE webhook_subscriptions
    SET previous_key_sealed = key_sealed, previous_key_expires_at = ${expiresAt}::timestamptz,
        key_sealed = ${input.keySealed}, rotated_at = ${input.now}::timestamptz
    WHERE id = ${input.id} AND owner_key_id = ${input.ownerKeyId} AND deleted_at IS NULL
    RETURNING id, owner_key_id, wallets, url, event_types, description, created_at, rotated_at,
              previous_key_expires_at`;
  if (!row) return null;
  return {
    id: row.id,
    ownerKeyId: row.owner_key_id,
    wallets: row.wallets,
    url: row.url,
    eventTypes: row.event_types,
    description: row.description,
    createdAt: row.created_at,
    rotatedAt: row.rotated_at,
    previousKeyExpiresAt: row.previous_key_expires_at,
  };
}

/**
 * Deletes (soft) the owner's subscription and ends its pending deliveries as `failed`
 * ("subscription deleted"), in one transaction: the first statement waits for a relay that is
 * creating deliveries for it, the second (a new snapshot) then ends those too. Returns when it
 * was deleted, or null when it is unknown, already deleted, or not this owner's.
 */
export async function deleteWebhookSubscription(
  prisma: Books,
  { id, ownerKeyId, now }: { id: string; ownerKeyId: string; now: Date },
  /** Runs in the same transaction once the subscription is deleted (the audit trail). */
  andThen?: (tx: Books, deletedAt: Date) => Promise<void>,
): Promise<Date | null> {
  return prisma.transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ deleted_at: Date }[]>`
      UPDATE webhook_subscriptions SET deleted_at = ${now}::timestamptz
      WHERE id = ${id} AND owner_key_id = ${ownerKeyId} AND deleted_at IS NULL
      RETURNING deleted_at`;
    if (!row) return null;
    await tx.$executeRaw`
      UPDATE webhook_deliveries
      SET status = 'failed', last_error = 'subscription deleted', claim_token = NULL,
          locked_until = NULL
      WHERE subscription_id = ${id} AND status = 'pending'`;
    await andThen?.(tx, row.deleted_at);
    return row.deleted_at;
  });
}
