import { readAutoYield, writeAutoYield } from '@yieldrouter/ledger';
import type { AutoYieldSettingRow, Books, WriteRecorder } from '@yieldrouter/ledger';
import type { AutoYieldDocument, Opportunity } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { recordedWrite } from '../recordedWrite';
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
    maxStakeMicros: row.maxStakeMicros === null ? null : formatMicros(row.maxStakeMicros),
    updatedAt: row.updatedAt?.toISOString() ?? null,
  };
}

/** GET /wallets/{address}/auto-yield: off until the owner turns it on. */
export async function getAutoYield(
  db: Books,
  adapters: ChainAdapters,
  address: string,
  opportunities: readonly Opportunity[],
): Promise<Document> {
  const wallet = ledgerWallet(adapters, address);
  return document(wallet, await readAutoYield(db, wallet), opportunities);
}

export interface AutoYieldInput {
  readonly enabled: boolean;
  readonly opportunityId?: string | undefined;
  /** v1 clients' alias of `opportunityId`. */
  readonly targetVenue?: string | undefined;
  readonly maxStakeMicros?: bigint | undefined;
}

/** The venue the setting pins (by `opportunityId` or its alias `targetVenue`), if any. */
function pinnedVenue(
  setting: AutoYieldInput,
  opportunities: readonly Opportunity[],
): Opportunity | undefined {
  const named = [
    ['opportunityId', setting.opportunityId],
    ['targetVenue', setting.targetVenue],
  ] as const;
  let pinned: Opportunity | undefined;
  for (const [field, id] of named) {
    if (id === undefined) continue;
    const venue = findOpportunity(opportunities, id);
    if (!venue) {
      throw new EngineError(
        'strategy_unknown',
        `body.${field}: no opportunity ${id}`,
        `body.${field}`,
      );
    }
    if (pinned && pinned.venueId !== venue.venueId) {
      throw new EngineError(
        'BAD_REQUEST',
        `body.targetVenue: names ${venue.venueId}, but opportunityId names ${pinned.venueId}`,
        'body.targetVenue',
      );
    }
    pinned = venue;
  }
  return pinned;
}

/**
 * PUT /wallets/{address}/auto-yield: on or off, optionally pinned to a venue (opportunity id,
 * bare venue id or form- alias; `targetVenue` is an alias) that route with stake then deposits
 * into on that venue's chain, and capped by `maxStakeMicros`.
 */
export async function setAutoYield(
  db: Books,
  adapters: ChainAdapters,
  address: string,
  setting: AutoYieldInput,
  opportunities: readonly Opportunity[],
  now: Date,
  /** Called in the transaction that writes the setting (the audit trail, an idempotent answer). */
  recordWrite?: WriteRecorder<Document>,
): Promise<Document> {
  const wallet = ledgerWallet(adapters, address);
  const venueId = pinnedVenue(setting, opportunities)?.venueId ?? null;
  // "0" resets the cap, as absence does.
  const maxStakeMicros = setting.maxStakeMicros ? setting.maxStakeMicros : null;
  const write = { enabled: setting.enabled, venueId, maxStakeMicros, now };
  return recordedWrite(
    db,
    async (client) => document(wallet, await writeAutoYield(client, wallet, write), opportunities),
    recordWrite,
  );
}
