import { deployCpPool } from '@yieldrouter/chain-beds/solana';
import type { SolanaCpPool } from '@yieldrouter/chain-beds/solana';
import { startJupiterFake } from '@yieldrouter/chain-beds/quotes';
import type { JupiterFake } from '@yieldrouter/chain-beds/quotes';
import { startSolanaRouterApp } from './solanaRouterApp';
import type { SolanaRouterApp } from './solanaRouterApp';

export interface JupiterBedApp {
  readonly app: SolanaRouterApp;
  /** USDC (mint A) / BED (mint B, 9 decimals) at 1 USDC micro per 5 BED units. */
  readonly pool: SolanaCpPool;
  /** With `solPool`: USDC (mint A) / wrapped SOL (mint B) at 100 USDC per SOL, same program. */
  readonly solPool: SolanaCpPool | undefined;
  readonly fake: JupiterFake;
}

/** The wrapped SOL mint (a USDC/SOL pool's mint B). */
const WRAPPED_SOL_MINT = 'So11111111111111111111111111111111111111112';

/**
 * The Solana router app with a cp_pool on its bed, the Jupiter-shaped fake quoting over it (slow
 * mode: 3 s, past the app's 1.5 s quote timeout), and the app's Jupiter settings: the fake, the
 * pool's program as the swap program, `feeRecipient`, and the pool's other mint as `BED`. With
 * `solPool`, a USDC/SOL pool of the same program too (gas top-ups buy SOL there).
 */
export async function startJupiterBedApp(
  feeRecipient: string,
  options: { readonly solPool?: boolean } = {},
): Promise<JupiterBedApp> {
  let pool: SolanaCpPool | undefined;
  let solPool: SolanaCpPool | undefined;
  let fake: JupiterFake | undefined;
  const app = await startSolanaRouterApp({
    onBed: async (solana) => {
      const cpPool = deployCpPool(solana, {
        reserveA: 1_000_000_000_000n,
        reserveB: 5_000_000_000_000n,
      });
      solPool = options.solPool
        ? deployCpPool(solana, {
            program: cpPool.program,
            mintB: WRAPPED_SOL_MINT,
            reserveA: 1_000_000_000_000n,
            reserveB: 10_000_000_000_000n,
          })
        : undefined;
      const pools = solPool ? [cpPool, solPool] : [cpPool];
      const jupiter = await startJupiterFake({ bed: solana, pools, slowMs: 3_000 });
      pool = cpPool;
      fake = jupiter;
      return {
        env: {
          SVC_JUPITER_BASE_URL: jupiter.url,
          SVC_JUPITER_TIMEOUT_MS: '1500',
          SVC_JUPITER_PROGRAM_ID: cpPool.program,
          SVC_SOLANA_SWAP_FEE_RECIPIENT: feeRecipient,
          SVC_SOLANA_SWAP_TOKENS: `BED:${cpPool.mintB}:9`,
        },
        close: () => jupiter.close(),
      };
    },
  });
  if (!pool || !fake) throw new Error('the Jupiter bed did not start');
  return { app, pool, solPool, fake };
}
