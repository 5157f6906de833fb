// `pnpm localnet`: starts every local chain bed, funds one demo wallet per chain, and prints
// (and writes to .data/localnet.env) the settings that point the API at them. Ctrl-C stops all.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';
import { startEvmBed } from './evm';
import type { EvmBed } from './evm';
import { startSolanaBed } from './solana';
import type { SolanaBed } from './solana';
import { startSuiFake } from './sui';
import type { SuiFake } from './sui';
import { DEFAULT_YIELDS_POOLS, startYieldsServer } from './yields';

const SUI_USDC = '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC';
const DEMO_USDC_MICROS = 1_000_000_000n; // 1,000 USDC per demo wallet
const ROOT = path.resolve(__dirname, '..', '..', '..');
const ENV_FILE = path.join(ROOT, '.data', 'localnet.env');

async function main(): Promise<void> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    await Promise.allSettled(stops.map((stop) => stop()));
  };
  try {
    const base: EvmBed = await startEvmBed({ chainId: 8453 });
    stops.push(() => base.stop());
    const arbitrum: EvmBed = await startEvmBed({ chainId: 42161 });
    stops.push(() => arbitrum.stop());
    const solana: SolanaBed = await startSolanaBed();
    stops.push(() => solana.stop());
    const sui: SuiFake = await startSuiFake();
    stops.push(() => sui.stop());
    // DefiLlama's pool shape, risk fields included, so every opportunity field has a value.
    const yields = await startYieldsServer();
    stops.push(() => yields.stop());
    const [basePool, arbitrumPool, solanaPool, suiPool, suiNullPool] = DEFAULT_YIELDS_POOLS.map(
      (pool) => pool.pool,
    );

    const evmWallet = base.anvil.accounts[1]?.address;
    if (!evmWallet) throw new Error('anvil has no second account');
    await base.fixtures.mintUsdc(evmWallet, DEMO_USDC_MICROS);
    await arbitrum.fixtures.mintUsdc(evmWallet, DEMO_USDC_MICROS);
    const solanaWallet = Keypair.generate().publicKey.toBase58();
    solana.airdrop(solanaWallet, 5_000_000_000n);
    solana.mintUsdc(solanaWallet, DEMO_USDC_MICROS);
    const suiWallet = `0x${'5a'.repeat(32)}`;
    sui.setBalance(suiWallet, '0x2::sui::SUI', 5_000_000_000n);
    sui.setBalance(suiWallet, SUI_USDC, DEMO_USDC_MICROS);

    const env = {
      SVC_BASE_RPC_URL: base.adapterConfig.rpcUrl,
      SVC_BASE_USDC_ADDRESS: base.adapterConfig.usdcAddress,
      SVC_BASE_REGISTRY_ADDRESS: base.adapterConfig.registryAddress,
      SVC_ARBITRUM_RPC_URL: arbitrum.adapterConfig.rpcUrl,
      SVC_ARBITRUM_USDC_ADDRESS: arbitrum.adapterConfig.usdcAddress,
      SVC_ARBITRUM_REGISTRY_ADDRESS: arbitrum.adapterConfig.registryAddress,
      SVC_SOLANA_RPC_URL: solana.rpcUrl,
      SVC_SUI_RPC_URL: sui.rpcUrl,
      SVC_SUI_NETWORK: 'localnet',
      SVC_APY_BASE_URL: yields.url,
      SVC_APY_POOLS: JSON.stringify({
        'aave-v3': basePool,
        morpho: basePool,
        fluid: arbitrumPool,
        kamino: solanaPool,
        suilend: suiPool,
        navi: suiNullPool,
      }),
      // The bed's vaults and Aave stand-in: the discovery refresh reads TVL and caps from them.
      SVC_VENUE_IDS: JSON.stringify({
        'aave-v3': { pool: base.fixtures.aavePool, aToken: base.fixtures.aToken },
        morpho: { vault: base.fixtures.vault },
        fluid: { vault: arbitrum.fixtures.vault },
      }),
    };
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
  } catch (error) {
    await stopAll();
    throw error;
  }

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stdout.write('stopping the beds\n');
  await stopAll();
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
