import { readAutopilotDecisions } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { AutopilotHistory } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { idCursor } from '../idCursor';
import { ledgerWallet } from '../wallet/walletAddress';
import { decisionDocument } from './autopilotRecords';

const cursor = idCursor('apd');

/**
 * GET …/autopilot/history (svc-autopilot-history.v1): the wallet's decisions (ticks, previews,
 * decides), newest first, `limit` per page (50 by default); `nextCursor` continues, null on the
 * last page.
 */
export async function readAutopilotHistory(
  db: Books,
  adapters: ChainAdapters,
  address: string,
  query: { readonly cursor?: string | undefined; readonly limit?: number | undefined },
): Promise<AutopilotHistory> {
  const wallet = ledgerWallet(adapters, address);
  const limit = query.limit ?? 50;
  const before = query.cursor === undefined ? undefined : cursor.decode(query.cursor);
  // One more than the page: whether another page follows, without a count.
  const rows = await readAutopilotDecisions(db, wallet, { limit: limit + 1, before });
  const page = cursor.page(rows, limit);
  return {
    schemaVersion: 'svc-autopilot-history.v1',
    wallet,
    count: page.rows.length,
    decisions: page.rows.map(decisionDocument),
    nextCursor: page.nextCursor,
  };
}
