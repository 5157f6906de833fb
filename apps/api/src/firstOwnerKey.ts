import { createApiKey, listApiKeys } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { ApiConfig } from './env';

export interface FirstOwnerKey {
  readonly id: string;
  readonly key: string;
}

/**
 * A newcomer's first owner key: on the embedded database only, outside production, when no key
 * was ever stored and none is configured (`SVC_API_KEYS`), one owner key for every wallet is
 * created and returned, for `pnpm start` to print once. Otherwise null, and nothing is created:
 * a later start, PostgreSQL (`DATABASE_URL`: `pnpm keys create`) or production never get one.
 */
export async function issueFirstOwnerKey(
  db: Books,
  config: Pick<ApiConfig, 'databaseUrl' | 'nodeEnv' | 'staticKeys' | 'apiKeySecret'>,
): Promise<FirstOwnerKey | null> {
  if (config.databaseUrl || config.nodeEnv === 'production' || config.staticKeys.length > 0) {
    return null;
  }
  // Revoked keys count: a first key is issued once, never again after one was revoked.
  if ((await listApiKeys(db)).length > 0) return null;
  const created = await createApiKey(
    db,
    { role: 'owner', wallets: ['*'], label: 'first start (embedded database, development)' },
    config.apiKeySecret,
  );
  return { id: created.id, key: created.key };
}

/** What `pnpm start` prints (to the terminal, never to the log stream) with the first key. */
export const firstOwnerKeyLines = ({ id, key }: FirstOwnerKey): string =>
  [
    'First start on the embedded database: an owner key for every wallet (development only; shown once):',
    `  ${key}`,
    `Use it as X-API-Key. Revoke it with \`pnpm keys revoke ${id}\` (stop the service first).`,
    '',
  ].join('\n');
