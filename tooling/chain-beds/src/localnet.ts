// `pnpm localnet`: starts every local chain bed, funds one demo wallet per chain, and prints
// (and writes to .data/localnet.env) the settings that point the API at them. Ctrl-C stops all.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startLocalnet } from './localnetStack';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const ENV_FILE = path.join(ROOT, '.data', 'localnet.env');

async function main(): Promise<void> {
  const localnet = await startLocalnet();
  try {
    const { env } = localnet;
    const { evm: evmWallet, solana: solanaWallet, sui: suiWallet } = localnet.wallets;
    // Single-quoted where the shell would mangle the value (JSON), so `. localnet.env` keeps it.
    const lines = Object.entries(env).map(([name, value]) =>
      /^[\w.:/@-]*$/.test(value) ? `${name}=${value}` : `${name}='${value}'`,
    );
    mkdirSync(path.dirname(ENV_FILE), { recursive: true });
    writeFileSync(ENV_FILE, `${lines.join('\n')}\n`);

    const out = process.stdout;
    out.write('Local chain beds are up (Ctrl-C stops them).\n\n');
    out.write(`Settings (also in ${path.relative(ROOT, ENV_FILE)}):\n`);
    for (const line of lines) out.write(`  ${line}\n`);
    out.write('\nDemo wallets (1,000 USDC each, plus gas):\n');
    out.write(`  base / arbitrum  ${evmWallet}\n  solana           ${solanaWallet}\n`);
    out.write(`  sui              ${suiWallet}\n\n`);
    out.write('Start the API against them, from the repository root:\n');
    out.write('  set -a; . .data/localnet.env; set +a; npx -y pnpm@10 start\n');
    out.write(
      `  curl 'http://localhost:3000/api/v1/svc/solana/wallet-balance?address=${solanaWallet}'\n`,
    );
    out.write(`\nOwner key of the demo wallets (in SVC_API_KEYS): ${localnet.ownerKey}\n`);
    out.write('A Base → Arbitrum bridge through the API and the keeper (25 USDC by default):\n');
    out.write('  npx -y pnpm@10 localnet:bridge [amount-usdc]\n');
  } catch (error) {
    await localnet.stop();
    throw error;
  }

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stdout.write('stopping the beds\n');
  await localnet.stop();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `localnet failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
