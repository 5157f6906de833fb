import type { Books } from '@yieldrouter/ledger';

/**
 * Runs a write and, when the caller passes a recorder (the audit trail, an Idempotency-Key
 * answer), records its outcome in the same transaction: the change and its record commit
 * together or not at all. Without a recorder the write runs on its own.
 */
export async function recordedWrite<T>(
  db: Books,
  write: (client: Books) => Promise<T>,
  recordWrite: ((tx: Books, outcome: T) => Promise<void>) | undefined,
): Promise<T> {
  if (!recordWrite) return write(db);
  return db.transaction(async (tx) => {
    const outcome = await write(tx);
    await recordWrite(tx, outcome);
    return outcome;
  });
}
