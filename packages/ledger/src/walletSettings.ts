import type { PrismaClientOrTransaction } from './apiKeys';

export interface AutoYieldSettingRow {
  readonly enabled: boolean;
  /** The venue route-with-stake deposits into; null = the best ready venue on the chain. */
  readonly venueId: string | null;
  readonly updatedAt: Date | null;
}

/** A wallet's auto-yield setting; off (and never stored) by default. */
export async function readAutoYield(
  db: PrismaClientOrTransaction,
  wallet: string,
): Promise<AutoYieldSettingRow> {
  // Raw SQL: read on every route request, where the model API's cost per call shows.
  const rows = await db.$queryRaw<
    { auto_yield_enabled: boolean; auto_yield_venue_id: string | null; updated_at: Date }[]
  >`
    SELECT auto_yield_enabled, auto_yield_venue_id, updated_at
    FROM wallet_settings WHERE wallet = ${wallet}`;
  const row = rows[0];
  if (!row) return { enabled: false, venueId: null, updatedAt: null };
  return {
    enabled: row.auto_yield_enabled,
    venueId: row.auto_yield_venue_id,
    updatedAt: row.updated_at,
  };
}

export async function writeAutoYield(
  db: PrismaClientOrTransaction,
  wallet: string,
  setting: { enabled: boolean; venueId: string | null; now: Date },
): Promise<AutoYieldSettingRow> {
  const fields = {
    autoYieldEnabled: setting.enabled,
    autoYieldVenueId: setting.venueId,
    updatedAt: setting.now,
  };
  const row = await db.walletSetting.upsert({
    where: { wallet },
    create: { wallet, ...fields },
    update: fields,
  });
  return { enabled: row.autoYieldEnabled, venueId: row.autoYieldVenueId, updatedAt: row.updatedAt };
}
