import {
  claimFirst,
  claimIdempotencyKey,
  completeIdempotencyKey,
  findActiveApiKeyByHash,
  findIdempotentWrite,
  hashApiKey,
  insertAuditEvents,
  isDatabaseUnavailable,
  readPlanWallet,
  recordIdempotentWrite,
  releaseIdempotencyKey,
} from '@yieldrouter/ledger';
import type {
  ApiKeyRecord,
  AuditEventInput,
  ClaimFirstReturnType,
  ClaimIdempotencyKeyParameters,
  ClaimIdempotencyKeyReturnType,
  Books,
  IdempotencyClaim,
  IdempotencyKeyRef,
  IdempotentResponse,
  IdempotentWrite,
} from '@yieldrouter/ledger';

export { IDEMPOTENCY_KEY_PATTERN } from '@yieldrouter/ledger';
export type {
  ApiKeyRecord,
  AuditEventInput,
  Books,
  ClaimIdempotencyKeyParameters,
  ClaimIdempotencyKeyReturnType,
  IdempotencyClaim,
  IdempotencyKeyRef,
  IdempotentResponse,
  IdempotentWrite,
  RecordedRows,
  WriteRecorder,
} from '@yieldrouter/ledger';

/** Idempotency-Key records: the caller's claim on a key, and a write's stored outcome. */
export interface IdempotencyRecords {
  /** A fresh key in one statement: claimed, or the write's outcome, or taken by another run. */
  claimFirst(
    parameters: ClaimIdempotencyKeyParameters & { readonly write: IdempotencyKeyRef },
  ): Promise<ClaimFirstReturnType>;
  claim(parameters: ClaimIdempotencyKeyParameters): Promise<ClaimIdempotencyKeyReturnType>;
  findWrite(write: IdempotencyKeyRef): Promise<IdempotentWrite | undefined>;
  complete(claim: IdempotencyClaim, response: IdempotentResponse): Promise<boolean>;
  release(claim: IdempotencyClaim): Promise<boolean>;
  /** Records a write's outcome in `tx` (the use case's transaction, or the store itself). */
  record(
    tx: Books | undefined,
    write: IdempotencyKeyRef & IdempotentWrite,
    claim: IdempotencyClaim,
  ): Promise<void>;
}

/** The wallets' audit trail, as the HTTP layer writes it around every audited call. */
export interface AuditRecords {
  /** Appends events in `tx` (the use case's transaction, so they commit with the change) or alone. */
  record(tx: Books | undefined, events: readonly AuditEventInput[]): Promise<void>;
  /** The wallet a plan belongs to (its trail records settle and cancel), or null. */
  planWallet(planId: string): Promise<string | null>;
}

/**
 * What the HTTP layer keeps in the database besides the books: API keys and Idempotency-Key
 * records, behind one narrow interface, so nothing under the API's HTTP layer or handlers
 * touches the ledger itself.
 */
export interface ApiStore {
  /** HMAC-SHA256 of a raw key with the server secret: how keys are stored and looked up. */
  hashKey(rawKey: string, secret: string): string;
  /** The active key with that hash, or null when unknown or revoked. */
  findActiveKey(keyHash: string): Promise<ApiKeyRecord | null>;
  readonly idempotency: IdempotencyRecords;
  readonly audit: AuditRecords;
  /** Whether an error means the database cannot be reached now (answer 503, retry). */
  isUnavailable(error: unknown): boolean;
}

/** The API's store on `books`. */
export function createApiStore(db: Books): ApiStore {
  return {
    hashKey: hashApiKey,
    findActiveKey: (keyHash) => findActiveApiKeyByHash(db, keyHash),
    isUnavailable: isDatabaseUnavailable,
    idempotency: {
      claimFirst: (parameters) => claimFirst(db, parameters),
      claim: (parameters) => claimIdempotencyKey(db, parameters),
      findWrite: (write) => findIdempotentWrite(db, write),
      complete: (claim, response) => completeIdempotencyKey(db, claim, response),
      release: (claim) => releaseIdempotencyKey(db, claim),
      record: (tx, write, claim) => recordIdempotentWrite(tx ?? db, write, claim),
    },
    audit: {
      record: (tx, events) => insertAuditEvents(tx ?? db, events),
      planWallet: (planId) => readPlanWallet(db, planId),
    },
  };
}
