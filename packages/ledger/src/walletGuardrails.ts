import type { Books } from './books';
import { sqlStatement } from './sqlClient';

/** A wallet's guardrails as stored (migration 0021); null = no limit. */
export interface GuardrailsRow {
  readonly allowedChains: readonly string[] | null;
  readonly venueAllowlist: readonly string[] | null;
  /** Opportunity id → the most of the wallet's staked principal on its chain, in bps. */
  readonly maxAllocationBps: Readonly<Record<string, number>>;
  readonly maxPerOpportunityMicros: bigint | null;
  readonly minNetApyBps: number | null;
  readonly updatedAt: Date | null;
}

/** The guardrails of a wallet that never set any: no limit. */
export const NO_GUARDRAILS: GuardrailsRow = {
  allowedChains: null,
  venueAllowlist: null,
  maxAllocationBps: {},
  maxPerOpportunityMicros: null,
  minNetApyBps: null,
  updatedAt: null,
};

interface StoredRow {
  allowed_chains: string[] | null;
  venue_allowlist: string[] | null;
  max_allocation_bps: Record<string, number>;
  max_per_opportunity_micros: bigint | string | null;
  min_net_apy_bps: number | null;
  updated_at: Date;
}

const toRow = (row: StoredRow): GuardrailsRow => ({
  allowedChains: row.allowed_chains,
  venueAllowlist: row.venue_allowlist,
  maxAllocationBps: row.max_allocation_bps,
  maxPerOpportunityMicros:
    row.max_per_opportunity_micros === null ? null : BigInt(row.max_per_opportunity_micros),
  minNetApyBps: row.min_net_apy_bps,
  updatedAt: row.updated_at,
});

/** A wallet's guardrails (by ledger key); none stored → no limit. */
export async function readWalletGuardrails(
  db: Pick<Books, 'sql'>,
  wallet: string,
): Promise<GuardrailsRow> {
  // On the driver (a named statement): read on every route request, where Prisma's cost per
  // call shows.
  return (await readWalletGuardrailsOf(db, [wallet])).get(wallet) ?? NO_GUARDRAILS;
}

const GUARDRAILS_OF_WALLETS = sqlStatement(
  'yr_guardrails_of_wallets',
  `
  SELECT wallet, allowed_chains, venue_allowlist, max_allocation_bps,
         max_per_opportunity_micros::text AS max_per_opportunity_micros, min_net_apy_bps,
         updated_at
  FROM wallet_guardrails WHERE wallet = ANY (ARRAY(SELECT jsonb_array_elements_text($1::jsonb)))`,
  { readOnly: true },
);

/** The guardrails of `wallets` in one read (the autopilot's keeper page); no limit if none. */
export async function readWalletGuardrailsOf(
  db: Pick<Books, 'sql'>,
  wallets: readonly string[],
): Promise<Map<string, GuardrailsRow>> {
  const found = new Map<string, GuardrailsRow>(wallets.map((wallet) => [wallet, NO_GUARDRAILS]));
  if (wallets.length === 0) return found;
  const rows = await db.sql.query<StoredRow & { wallet: string }>(GUARDRAILS_OF_WALLETS, [
    JSON.stringify(wallets),
  ]);
  for (const row of rows) found.set(row.wallet, toRow(row));
  return found;
}

/** Replaces a wallet's guardrails (PUT semantics: what is not given has no limit). */
export async function writeWalletGuardrails(
  db: Books,
  wallet: string,
  guardrails: Omit<GuardrailsRow, 'updatedAt'> & { readonly now: Date },
): Promise<GuardrailsRow> {
  const rows = await db.$queryRaw<StoredRow[]>`
    INSERT INTO wallet_guardrails (wallet, allowed_chains, venue_allowlist, max_allocation_bps,
                                   max_per_opportunity_micros, min_net_apy_bps, updated_at)
    VALUES (${wallet}, ${guardrails.allowedChains as string[] | null}::text[],
            ${guardrails.venueAllowlist as string[] | null}::text[],
            ${JSON.stringify(guardrails.maxAllocationBps)}::jsonb,
            ${guardrails.maxPerOpportunityMicros}::bigint, ${guardrails.minNetApyBps}::integer,
            ${guardrails.now})
    ON CONFLICT (wallet) DO UPDATE SET
      allowed_chains = EXCLUDED.allowed_chains, venue_allowlist = EXCLUDED.venue_allowlist,
      max_allocation_bps = EXCLUDED.max_allocation_bps,
      max_per_opportunity_micros = EXCLUDED.max_per_opportunity_micros,
      min_net_apy_bps = EXCLUDED.min_net_apy_bps, updated_at = EXCLUDED.updated_at
    RETURNING allowed_chains, venue_allowlist, max_allocation_bps,
              max_per_opportunity_micros::text AS max_per_opportunity_micros, min_net_apy_bps,
              updated_at`;
  const row = rows[0];
  if (!row) throw new Error(`guardrails of ${wallet} were not written`);
  return toRow(row);
}
