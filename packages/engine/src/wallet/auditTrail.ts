import { readAuditPage } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { AuditTrailDocument } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { idCursor } from '../idCursor';
import { ledgerWallet } from './walletAddress';

// The cursor is the last event's id: ids only grow, so a page never repeats or skips a row.
const cursor = idCursor('audit');

/**
 * `GET /wallets/{address}/audit` (svc-wallet-audit.v1): the wallet's state-changing calls,
 * newest first, `limit` per page (50 by default); `nextCursor` continues, null on the last page.
 */
export async function readAuditTrail(
  db: Books,
  adapters: ChainAdapters,
  address: string,
  query: { readonly cursor?: string | undefined; readonly limit?: number | undefined },
): Promise<AuditTrailDocument> {
  const wallet = ledgerWallet(adapters, address);
  const limit = query.limit ?? 50;
  const before = query.cursor === undefined ? undefined : cursor.decode(query.cursor);
  // One more than the page: whether another page follows, without a count.
  const rows = await readAuditPage(db, wallet, { limit: limit + 1, before });
  const page = cursor.page(rows, limit);
  const events = page.rows.map((row) => ({
    id: row.id.toString(),
    at: row.at.toISOString(),
    operation: row.operation,
    method: row.method,
    path: row.path,
    actor: { role: row.actorRole, keyId: row.keyId },
    requestId: row.requestId,
    planId: row.planId,
    outcome: row.outcome,
    status: row.status,
    errorCode: row.errorCode,
  }));
  return {
    schemaVersion: 'svc-wallet-audit.v1',
    wallet,
    count: events.length,
    events,
    nextCursor: page.nextCursor,
  };
}
