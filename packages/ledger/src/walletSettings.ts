import type { Books } from './books';
import { sqlStatement } from './sqlClient';

export interface AutoYieldSettingRow {
  readonly enabled: boolean;
  /** The venue route-with-stake deposits into; null = the best ready venue on the chain. */
  readonly venueId: string | null;
  /** The most auto-yield keeps staked (staked plus pending in); null = no cap. */
  readonly maxStakeMicros: bigint | null;
  readonly updatedAt: Date | null;
}

/** A wallet's auto-yield setting; off (and never stored) by default. */
const AUTO_YIELD_OF_WALLET = sqlStatement(
  'yr_auto_yield_of_wallet',
  `
  SELECT auto_yield_enabled, auto_yield_venue_id,
         auto_yield_max_stake_micros::text AS auto_yield_max_stake_micros, updated_at
  FROM wallet_settings WHERE wallet = $1`,
  { readOnly: true },
);

export async function readAutoYield(
  db: Pick<Books, 'sql'>,
  wallet: string,
): Promise<AutoYieldSettingRow> {
  // On the driver (a named statement): read on every route request, where Prisma's cost per
  // call shows.
  const rows = await db.sql.query<{
    auto_yield_enabled: boolean;
    auto_yield_venue_id: string | null;
    auto_yield_max_stake_micros: string | null;
    updated_at: Date;
  }>(AUTO_YIELD_OF_WALLET, [wallet]);
  const row = rows[0];
  if (!row) return { enabled: false, venueId: null, maxStakeMicros: null, updatedAt: null };
  return {
    enabled: row.auto_yield_enabled,
    venueId: row.auto_yield_venue_id,
    maxStakeMicros:
      row.auto_yield_max_stake_micros === null ? null : BigInt(row.auto_yield_max_stake_micros),
    updatedAt: row.updated_at,
  };
}

export async function writeAutoYield(
  db: Books,
  wallet: string,
  setting: { enabled: boolean; venueId: string | null; maxStakeMicros: bigint | null; now: Date },
): Promise<AutoYieldSettingRow> {
  const fields = {
    autoYieldEnabled: setting.enabled,
    autoYieldVenueId: setting.venueId,
    autoYieldMaxStakeMicros: setting.maxStakeMicros,
    updatedAt: setting.now,
  };
  const row = await db.walletSetting.upsert({
    where: { wallet },
    create: { wallet, ...fields },
    update: fields,
  });
  return {
    enabled: row.autoYieldEnabled,
    venueId: row.autoYieldVenueId,
    maxStakeMicros: row.autoYieldMaxStakeMicros,
    updatedAt: row.updatedAt,
  };
}
