import { upsertVenueCatalog } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import { VENUE_CATALOG, VENUE_CATALOG_VERSION, requiredVenueIds } from './catalog';
import type { VenueCatalogEntry } from './catalog';

/** `svcop` + 24 hex (12 random bytes): minted once per venue, never derived from its fields. */
export function mintOpportunityId(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return `svcop${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** Arbitrary constant: instances starting together seed one after the other. */
const SEED_LOCK = 7_453_120_001n;

/**
 * Writes the catalog into the database in one transaction under an advisory lock (idempotent;
 * opportunity ids are kept), so several API instances may start at once.
 */
export async function seedVenueCatalog(
  prisma: Books,
  catalog: readonly VenueCatalogEntry[] = VENUE_CATALOG,
): Promise<void> {
  await prisma.transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK})`;
    await upsertVenueCatalog(
      tx,
      catalog.map((entry) => ({
        ...entry,
        requiredIds: requiredVenueIds(entry.chain, entry.standard, entry.id),
      })),
      VENUE_CATALOG_VERSION,
      mintOpportunityId,
    );
  });
}
