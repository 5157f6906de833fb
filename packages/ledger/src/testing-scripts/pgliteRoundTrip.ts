// Run by createDatabase.pglite.test.ts in its own process (PGlite's WebAssembly loader wants
// real ESM, which jest's CommonJS sandbox does not give it).
import { createApiKey, findActiveApiKeyByHash, hashApiKey } from '../apiKeys';
import { DatabaseInUseError, createDatabase } from '../createDatabase';

async function main() {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: pgliteRoundTrip <dataDir>');
  const first = await createDatabase({ dataDir });
  const refused = await createDatabase({ dataDir }).then(
    () => false,
    (error: unknown) => error instanceof DatabaseInUseError,
  );
  const created = await createApiKey(
    first.prisma,
    { role: 'owner', wallets: ['w'] },
    's'.repeat(32),
  );
  await first.close();
  const second = await createDatabase({ dataDir });
  const found = await findActiveApiKeyByHash(
    second.prisma,
    hashApiKey(created.key, 's'.repeat(32)),
  );
  const migrations = await second.prisma.$queryRaw<
    Array<{ n: bigint }>
  >`SELECT count(*) AS n FROM "_svc_migrations"`;
  await second.close();
  process.stdout.write(
    JSON.stringify({
      refused,
      kind: second.kind,
      found: found?.id === created.id,
      migrations: Number(migrations[0]?.n),
    }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exit(1);
});
