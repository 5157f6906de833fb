import { readWalletGuardrails, writeWalletGuardrails } from '@yieldrouter/ledger';
import type { GuardrailsRow, Books, WriteRecorder } from '@yieldrouter/ledger';
import type {
  Chain,
  GuardrailsDocument,
  GuardrailsUpdate,
  Opportunity,
} from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { recordedWrite } from '../recordedWrite';
import { findOpportunity } from '../venues/listOpportunities';
import { ledgerWallet } from '../wallet/walletAddress';

function document(wallet: string, row: GuardrailsRow): GuardrailsDocument {
  return {
    schemaVersion: 'svc-wallet-guardrails.v1',
    wallet,
    allowedChains: row.allowedChains === null ? null : (row.allowedChains as Chain[]),
    venueAllowlist: row.venueAllowlist === null ? null : [...row.venueAllowlist],
    maxAllocationBps: { ...row.maxAllocationBps },
    maxPerOpportunityMicros:
      row.maxPerOpportunityMicros === null ? null : formatMicros(row.maxPerOpportunityMicros),
    minNetApyBps: row.minNetApyBps,
    ownerExitAlways: true,
    agentMayWithdrawPrincipal: false,
    updatedAt: row.updatedAt?.toISOString() ?? null,
  };
}

/** GET /wallets/{address}/guardrails: none set → every limit null. */
export async function getGuardrails(
  db: Books,
  adapters: ChainAdapters,
  address: string,
): Promise<GuardrailsDocument> {
  const wallet = ledgerWallet(adapters, address);
  return document(wallet, await readWalletGuardrails(db, wallet));
}

/** The opportunity id `id` names (svcop…, venue id or form- alias); unknown → 404. */
function opportunityIdOf(opportunities: readonly Opportunity[], id: string, field: string) {
  const found = findOpportunity(opportunities, id);
  if (!found) throw new EngineError('strategy_unknown', `${field}: no opportunity ${id}`, field);
  return found.opportunityId;
}

/** The update with every opportunity named by its opportunity id; unknown or twice → 4xx. */
function canonical(update: GuardrailsUpdate, opportunities: readonly Opportunity[]) {
  const allowlist = update.venueAllowlist?.map((id, index) =>
    opportunityIdOf(opportunities, id, `body.venueAllowlist[${index}]`),
  );
  if (allowlist && new Set(allowlist).size !== allowlist.length) {
    throw new EngineError(
      'BAD_REQUEST',
      'body.venueAllowlist: names an opportunity twice',
      'body.venueAllowlist',
    );
  }
  const allocation: Record<string, number> = {};
  for (const [id, bps] of Object.entries(update.maxAllocationBps ?? {})) {
    const field = `body.maxAllocationBps.${id}`;
    const opportunityId = opportunityIdOf(opportunities, id, field);
    if (opportunityId in allocation) {
      throw new EngineError('BAD_REQUEST', `${field}: names an opportunity twice`, field);
    }
    allocation[opportunityId] = bps;
  }
  return {
    allowedChains: update.allowedChains ?? null,
    venueAllowlist: allowlist ?? null,
    maxAllocationBps: allocation,
    maxPerOpportunityMicros: update.maxPerOpportunityMicros ?? null,
    minNetApyBps: update.minNetApyBps ?? null,
  };
}

/**
 * PUT /wallets/{address}/guardrails (owner): replaces the wallet's guardrails. Opportunities are
 * checked against the listing and stored by opportunity id; an unknown one is 404
 * `strategy_unknown` and nothing is stored. With `recordWrite` (the audit trail, an
 * Idempotency-Key answer) the record commits with the change.
 */
export async function setGuardrails(
  db: Books,
  adapters: ChainAdapters,
  address: string,
  update: GuardrailsUpdate,
  opportunities: readonly Opportunity[],
  now: Date,
  recordWrite?: WriteRecorder<GuardrailsDocument>,
): Promise<GuardrailsDocument> {
  const wallet = ledgerWallet(adapters, address);
  const guardrails = { ...canonical(update, opportunities), now };
  return recordedWrite(
    db,
    async (client) => document(wallet, await writeWalletGuardrails(client, wallet, guardrails)),
    recordWrite,
  );
}
