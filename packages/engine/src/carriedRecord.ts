import type { AuditEventInput } from '@yieldrouter/ledger';

/**
 * What a call records with a write that is group-committed with other callers' (a settlement's
 * leg outcome: one statement writes several requests' outcomes), where it has no transaction
 * of its own to run a `WriteRecorder` in: its audit rows travel with the change into the
 * statement that writes it, and commit with it or not at all.
 */
export interface CarriedRecord<T> {
  /** The audit rows of the call, were it to answer `outcome`. */
  rows(outcome: T): readonly AuditEventInput[];
  /** The rows committed with the change: the caller has nothing more to record. */
  committed(): void;
}
