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
  const row = await db.walletSetting.findUnique({ where: { wallet } });
  if (!row) return { enabled: false, venueId: null, updatedAt: null };
  return { enabled: row.autoYieldEnabled, venueId: row.autoYieldVenueId, updatedAt: row.updatedAt };
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
