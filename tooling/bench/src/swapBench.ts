// Swaps part of `pnpm bench` (BENCH_ONLY=swaps): EVM swap plans prepared per second through the
// real use case (prepareEvmSwapPlan: the 0x quote from the local 0x-shaped fake over the anvil
// bed's pair, fee lines, the allowance read, the plan stored) against the same request's quote
// round trip to the same fake plus one INSERT, at the same concurrency on the same database.
// Rounds alternate between the two so drift on a shared machine hits both alike; the median of
// the per-round ratios is the result (target >= 0.6).
import { randomBytes } from 'node:crypto';
import { startEvmBed } from '@yieldrouter/chain-beds/evm';
import { anvilAccounts } from '@yieldrouter/chain-beds/evm';
import { startZeroExFake } from '@yieldrouter/chain-beds/quotes';
import {
  createChainAdapters,
  createUseCases,
  createZeroExQuoteSource,
  parseSwapSettings,
} from '@yieldrouter/engine';
import { createDatabase } from '@yieldrouter/ledger';
import { NATIVE_USDC, OnChainIds } from '@yieldrouter/schemas';
import { pool, withDatabase } from './benchDatabase';

const CLIENTS = 8;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const PER_ROUND = Number(process.env['BENCH_SWAP_PLANS'] ?? 300);
const CHAIN_ID = 8453;
const FEE_RECIPIENT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';
const OFF = { executionEnabled: false, broadcastEnabled: false } as const;

const line = (text: string) => process.stdout.write(`${text}\n`);
const middle = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

export async function runSwapBench(): Promise<void> {
  const bed = await startEvmBed({ chainId: CHAIN_ID });
  const fake = await startZeroExFake({
    chains: [{ rpcUrl: bed.anvil.rpcUrl, chainId: CHAIN_ID, pair: bed.fixtures.pair }],
  });
  try {
    await withDatabase(async (url) => {
      const database = await createDatabase({ databaseUrl: url, poolSize: CLIENTS + 4 });
      try {
        const swaps = parseSwapSettings(
          {
            SVC_ZEROX_BASE_URL: fake.url,
            SVC_ZEROX_TIMEOUT_MS: 4_000,
            SVC_SWAP_QUOTE_TTL_SECONDS: 30,
            SVC_BASE_SWAP_FEE_RECIPIENT: FEE_RECIPIENT,
            SVC_BASE_SWAP_TOKENS: `WETH:${bed.fixtures.weth}:18`,
          },
          { base: bed.fixtures.usdc, arbitrum: NATIVE_USDC.arbitrum },
        );
        const zeroEx = swaps.zeroEx;
        if (!zeroEx) throw new Error('no 0x settings');
        const source = createZeroExQuoteSource({ ...zeroEx, quoteTtlMs: swaps.quoteTtlMs });
        const adapters = createChainAdapters({
          chains: {
            timeoutMs: 4_000,
            sui: { rpcUrl: undefined, network: 'mainnet', usdc: NATIVE_USDC.sui },
            solana: { rpcUrl: undefined, network: 'mainnet-beta', usdc: NATIVE_USDC.solana },
            base: { rpcUrl: bed.anvil.rpcUrl, usdc: bed.fixtures.usdc },
            arbitrum: { rpcUrl: undefined, usdc: NATIVE_USDC.arbitrum },
          },
          ids: OnChainIds.parse({ sui: {}, solana: {}, base: {}, arbitrum: {} }),
          switches: { sui: OFF, solana: OFF, base: OFF, arbitrum: OFF },
        });
        const { swap } = createUseCases(database);
        const owner = anvilAccounts()[7]?.address;
        if (!owner) throw new Error('no anvil account');
        const request = {
          chain: 'base' as const,
          owner,
          inputToken: 'USDC',
          outputToken: 'WETH',
          amountInMicros: 100_000_000n,
        };
        const plan = async () => {
          const document = await swap.prepareEvmSwapPlan({
            adapters,
            swaps,
            source,
            request,
            now: new Date(),
          });
          if (document.status !== 'prepared') {
            throw new Error(`the swap plan is ${document.status}: ${JSON.stringify(document)}`);
          }
        };

        // The baseline: the same request's quote (as the source sent it) and one INSERT.
        await plan();
        const asked = fake.requests.at(-1);
        if (!asked) throw new Error('the fake saw no quote request');
        const quoteUrl = new URL('/swap/allowance-holder/quote', fake.url);
        quoteUrl.search = new URLSearchParams(asked).toString();
        await database.$executeRawUnsafe(
          'CREATE TABLE bench_swap_quotes (id TEXT PRIMARY KEY, quote JSONB NOT NULL)',
        );
        const baseline = async () => {
          const response = await fetch(quoteUrl, {
            headers: { accept: 'application/json', '0x-version': 'v2' },
          });
          const body: unknown = await response.json();
          if (!response.ok) throw new Error(`the fake answered ${response.status}`);
          const id = randomBytes(16).toString('hex');
          await database.$executeRaw`
            INSERT INTO bench_swap_quotes (id, quote) VALUES (${id}, ${JSON.stringify(body)}::jsonb)`;
        };

        // Warm both paths (connections, JIT) before measuring.
        await pool(
          Array.from({ length: 50 }, () => plan),
          CLIENTS,
        );
        await pool(
          Array.from({ length: 50 }, () => baseline),
          CLIENTS,
        );
        const rates: number[] = [];
        const baselines: number[] = [];
        const ratios: number[] = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          const planSeconds = await pool(
            Array.from({ length: PER_ROUND }, () => plan),
            CLIENTS,
          );
          const baseSeconds = await pool(
            Array.from({ length: PER_ROUND }, () => baseline),
            CLIENTS,
          );
          rates.push(PER_ROUND / planSeconds);
          baselines.push(PER_ROUND / baseSeconds);
          ratios.push(baseSeconds / planSeconds);
        }
        line(
          `swaps: swap plans prepared/s at ${CLIENTS} clients ${middle(rates).toFixed(0)} vs ` +
            `quote round trip + one INSERT ${middle(baselines).toFixed(0)}/s → ratio ` +
            `${middle(ratios).toFixed(3)} (median of ${ROUNDS} alternating rounds of ` +
            `${PER_ROUND}, range ${Math.min(...ratios).toFixed(3)}–` +
            `${Math.max(...ratios).toFixed(3)}; target >= 0.6)`,
        );
      } finally {
        await database.close();
      }
    });
  } finally {
    await fake.close();
    await bed.stop();
  }
}
