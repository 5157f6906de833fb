import { readAutoYield, runLedgerTransaction, writeAutoYield } from '@yieldrouter/ledger';
import type {
  AutoYieldSettingRow,
  PrismaClient,
  PrismaClientOrTransaction,
  WriteRecorder,
} from '@yieldrouter/ledger';
import type { AutoYieldDocument, Opportunity } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { findOpportunity } from '../venues/listOpportunities';
import { ledgerWallet } from './walletAddress';

type Document = AutoYieldDocument;

function document(
  wallet: string,
  row: AutoYieldSettingRow,
  opportunities: readonly Opportunity[],
): Document {
  const venue = row.venueId
    ? opportunities.find((entry) => entry.venueId === row.venueId)
    : undefined;
  return {
    wallet,
    enabled: row.enabled,
    opportunityId: venue?.opportunityId ?? null,
    venueId: row.venueId,
    updatedAt: row.updatedAt?.toISOString() ?? null,
  };
}

/** GET /wallets/{address}/auto-yield: off until the owner turns it on. */
export async function getAutoYield(
  db: PrismaClientOrTransaction,
  adapters: ChainAdapters,
  address: string,
  opportunities: readonly Opportunity[],
): Promise<Document> {
  const wallet = ledgerWallet(adapters, address);
  return document(wallet, await readAutoYield(db, wallet), opportunities);
}

/**
 * PUT /wallets/{address}/auto-yield: on or off, optionally pinned to a venue (opportunity id,
 * bare venue id or form- alias) that route with stake then deposits into on that venue's chain.
 */
export async function setAutoYield(
  db: PrismaClient,
  adapters: ChainAdapters,
  address: string,
  setting: { enabled: boolean; opportunityId?: string | undefined },
  opportunities: readonly Opportunity[],
  now: Date,
  /** Called in the transaction that writes the setting (the audit trail, an idempotent answer). */
  recordWrite?: WriteRecorder<Document>,
): Promise<Document> {
  const wallet = ledgerWallet(adapters, address);
  let venueId: string | null = null;
  if (setting.opportunityId !== undefined) {
    const venue = findOpportunity(opportunities, setting.opportunityId);
    if (!venue) {
      throw new EngineError(
        'strategy_unknown',
        `body.opportunityId: no opportunity ${setting.opportunityId}`,
        'body.opportunityId',
      );
    }
    venueId = venue.venueId;
  }
  const write = { enabled: setting.enabled, venueId, now };
  if (!recordWrite) return document(wallet, await writeAutoYield(db, wallet, write), opportunities);
  return runLedgerTransaction(db, async (tx) => {
    const written = document(wallet, await writeAutoYield(tx, wallet, write), opportunities);
    await recordWrite(tx, written);
    return written;
  });
}
