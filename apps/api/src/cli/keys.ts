// `pnpm keys create|list|revoke`: manages API keys in the configured database.
import { parseArgs } from 'node:util';
import { createServiceLogger, createServices } from '@yieldrouter/engine';
import { createApiKey, listApiKeys, revokeApiKey } from '@yieldrouter/ledger';
import { parseEnv } from '../env';

const usage = `usage:
  pnpm keys create --role owner|agent|keeper [--wallet <address> ...] [--label <text>]
  pnpm keys list
  pnpm keys revoke <key-id>`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      role: { type: 'string' },
      wallet: { type: 'string', multiple: true },
      label: { type: 'string' },
    },
  });
  const [command, id] = positionals;
  const config = parseEnv(process.env);
  // Its output is the keys themselves: the services log nothing on stdout.
  const services = await createServices({
    config,
    dataDir: config.dataDir,
    logger: createServiceLogger('keys', 'silent'),
  });
  const db = services.books;
  try {
    switch (command) {
      case 'create': {
        const role = values.role;
        if (role !== 'owner' && role !== 'agent' && role !== 'keeper') {
          process.stderr.write(`--role must be owner, agent or keeper\n${usage}\n`);
          return 2;
        }
        const created = await createApiKey(
          db,
          { role, wallets: values.wallet ?? [], ...(values.label ? { label: values.label } : {}) },
          config.apiKeySecret,
        );
        process.stdout.write(
          `${JSON.stringify({ id: created.id, role: created.role, wallets: created.wallets, key: created.key })}\n`,
        );
        process.stderr.write('The key is shown once; store it now.\n');
        return 0;
      }
      case 'list': {
        for (const key of await listApiKeys(db)) process.stdout.write(`${JSON.stringify(key)}\n`);
        return 0;
      }
      case 'revoke': {
        if (!id) {
          process.stderr.write(`${usage}\n`);
          return 2;
        }
        const revoked = await revokeApiKey(db, id);
        process.stdout.write(revoked ? `revoked ${id}\n` : `no active key ${id}\n`);
        return revoked ? 0 : 1;
      }
      default:
        process.stderr.write(`${usage}\n`);
        return 2;
    }
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`keys: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
