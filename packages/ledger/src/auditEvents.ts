import type { Books } from './books';

/** One state-changing call on a wallet, as the audit trail keeps it (never a body). */
export interface AuditEventInput {
  readonly wallet: string;
  /** The route's operationId (`routeFunds`, `settlePlanLeg`, …). */
  readonly operation: string;
  readonly method: 'POST' | 'PUT' | 'DELETE';
  /** The route's path template (`/wallets/{address}/route`), never the concrete URL. */
  readonly path: string;
  readonly actorRole: 'owner' | 'agent' | 'keeper' | 'public';
  /** The API key's id (never the key); null on a public route. */
  readonly keyId: string | null;
  readonly requestId: string;
  readonly planId: string | null;
  readonly outcome: 'ok' | 'blocked' | 'refused';
  readonly status: number;
  readonly errorCode: string | null;
}

export interface AuditEvent extends AuditEventInput {
  readonly id: bigint;
  readonly at: Date;
}

/**
 * Appends audit events in one statement, in `db` (the transaction of the change they record,
 * so they commit with it, or the client itself).
 */
export async function insertAuditEvents(
  db: Books,
  events: readonly AuditEventInput[],
): Promise<void> {
  if (events.length === 0) return;
  await db.$executeRaw`
    INSERT INTO audit_events (wallet, operation, method, path, actor_role, key_id, request_id,
                              plan_id, outcome, status, error_code)
    SELECT e.wallet, e.operation, e.method, e.path, e.actor_role, e.key_id, e.request_id,
           e.plan_id, e.outcome, e.status, e.error_code
    FROM jsonb_to_recordset(${JSON.stringify(events.map(auditEventPayload))}::jsonb) AS e (
      wallet TEXT, operation TEXT, method TEXT, path TEXT, actor_role TEXT, key_id TEXT,
      request_id TEXT, plan_id TEXT, outcome TEXT, status INTEGER, error_code TEXT)`;
}

/**
 * An event as the database takes it in JSON (`insertAuditEvents`, and the audit rows a leg
 * outcome carries into `ledger_record_leg_outcomes`, migration 0019).
 */
export const auditEventPayload = (event: AuditEventInput) => ({
  wallet: event.wallet,
  operation: event.operation,
  method: event.method,
  path: event.path,
  actor_role: event.actorRole,
  key_id: event.keyId,
  request_id: event.requestId,
  plan_id: event.planId,
  outcome: event.outcome,
  status: event.status,
  error_code: event.errorCode,
});

interface AuditRow {
  id: bigint;
  at: Date;
  wallet: string;
  operation: string;
  method: AuditEventInput['method'];
  path: string;
  actor_role: AuditEventInput['actorRole'];
  key_id: string | null;
  request_id: string;
  plan_id: string | null;
  outcome: AuditEventInput['outcome'];
  status: number;
  error_code: string | null;
}

/** A wallet's audit events, newest first, `limit` of them after (older than) `before`. */
export async function readAuditPage(
  db: Books,
  wallet: string,
  page: { readonly limit: number; readonly before?: bigint | undefined },
): Promise<AuditEvent[]> {
  const rows = await db.$queryRaw<AuditRow[]>`
    SELECT id, at, wallet, operation, method, path, actor_role, key_id, request_id, plan_id,
           outcome, status, error_code
    FROM audit_events
    WHERE wallet = ${wallet} AND (${page.before ?? null}::bigint IS NULL OR id < ${page.before ?? null}::bigint)
    ORDER BY id DESC
    LIMIT ${page.limit}`;
  return rows.map((row) => ({
    id: BigInt(row.id),
    at: row.at,
    wallet: row.wallet,
    operation: row.operation,
    method: row.method,
    path: row.path,
    actorRole: row.actor_role,
    keyId: row.key_id,
    requestId: row.request_id,
    planId: row.plan_id,
    outcome: row.outcome,
    status: row.status,
    errorCode: row.error_code,
  }));
}

/** The wallet a plan's ledger moves follow (its owner's), or null for an unknown plan. */
export async function readPlanWallet(db: Books, planId: string): Promise<string | null> {
  const [row] = await db.$queryRaw<{ wallet: string | null }[]>`
    SELECT wallet FROM plans WHERE id = ${planId}`;
  return row?.wallet ?? null;
}
