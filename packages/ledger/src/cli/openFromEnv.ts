import type { Books } from '../books';
import type { CreateDatabaseOptions } from '../createDatabase';
import { createDatabase } from '../createDatabase';

/** The database the CLIs work on: DATABASE_URL, else the embedded PGlite directory. */
export function openDatabaseFromEnv(extra: Partial<CreateDatabaseOptions> = {}): Promise<Books> {
  const databaseUrl = process.env['DATABASE_URL'] || undefined;
  const dataDir = process.env['SVC_DATA_DIR'] || undefined;
  return createDatabase({
    ...extra,
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(dataDir ? { dataDir } : {}),
  });
}
