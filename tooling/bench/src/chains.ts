// The chain part of `pnpm bench`: per chain, plan-leg builds/s (offline build path) and wallet
// balance reads/s against the local beds, each against a bare-SDK baseline measured in the same
// run. Every bed is stopped before the next chain starts, also when a chain fails.
// Knobs: BENCH_CHAIN_SECONDS (2, per side per row), BENCH_CHAIN_ROUNDS (2),
// BENCH_CHAIN_CONCURRENCY (8), BENCH_CHAINS (evm,solana,sui).
import { performance } from 'node:perf_hooks';
import { chainBenchSettings } from './chain/benchSettings';
import type { ChainBenchSettings } from './chain/benchSettings';
import type { ChainReport } from './chain/chainReport';
import { benchEvm } from './chain/evmBench';
import { formatHeader, formatReport } from './chain/formatReport';
import { benchSolana } from './chain/solanaBench';
import { benchSui } from './chain/suiBench';

const CHAINS: Readonly<Record<string, (settings: ChainBenchSettings) => Promise<ChainReport>>> = {
  evm: benchEvm,
  solana: benchSolana,
  sui: benchSui,
};

/** BENCH_CHAINS=evm,sui runs a subset (default: all, in the order evm, solana, sui). */
function selectedChains(): string[] {
  const raw = process.env['BENCH_CHAINS'];
  if (raw === undefined || raw === '') return Object.keys(CHAINS);
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(name in CHAINS));
  if (unknown.length > 0) throw new Error(`BENCH_CHAINS: unknown chain(s) ${unknown.join(', ')}`);
  return names;
}

/**
 * Runs each selected chain's bench in turn and prints its table as soon as it is done. A failed
 * check (a leg not `prepared`, a balance not `ok`) throws after that chain's bed is stopped.
 */
export async function runChainBench(): Promise<void> {
  const settings = chainBenchSettings();
  const started = performance.now();
  process.stdout.write(
    [
      `Chain adapters vs bare SDK (${settings.seconds}s per side per row in ${settings.rounds} ` +
        `alternating rounds after a ${settings.warmupSeconds}s warm-up; ratio = ours/baseline ops/s)`,
      formatHeader(),
      '',
    ].join('\n'),
  );
  for (const name of selectedChains()) {
    const bench = CHAINS[name];
    if (!bench) throw new Error(`no bench for ${name}`);
    process.stdout.write(formatReport(await bench(settings)));
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`chain bench: ${seconds.toFixed(1)} s in total\n`);
}
