import { z } from 'zod';
import { SolanaPubkey } from '@yieldrouter/schemas';
import { HttpUrlSetting } from '../config/settingTypes';
import type { SwapToken } from './swapQuoteSource';

/** Jupiter's aggregator program (v6): the program a real quote's swap instruction calls. */
export const JUPITER_V6_PROGRAM_ID = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';

/** `SYMBOL:mint:decimals`, comma-separated (base58 mints). */
const SolanaSwapTokensSetting = z
  .string()
  .regex(
    /^\s*[A-Za-z0-9.]{1,16}:[1-9A-HJ-NP-Za-km-z]{32,44}:[0-9]{1,2}\s*(,\s*[A-Za-z0-9.]{1,16}:[1-9A-HJ-NP-Za-km-z]{32,44}:[0-9]{1,2}\s*)*$/,
    { error: 'must be SYMBOL:mint:decimals[,…]' },
  )
  .optional();

/** The Jupiter quote source's settings (Solana swaps), read by every process. */
export const JupiterSettingsSchema = z.object({
  SVC_JUPITER_BASE_URL: HttpUrlSetting,
  SVC_JUPITER_API_KEY: z.string().min(1).max(256).optional(),
  SVC_JUPITER_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4000),
  SVC_JUPITER_PROGRAM_ID: SolanaPubkey.default(JUPITER_V6_PROGRAM_ID),
  SVC_SOLANA_SWAP_FEE_RECIPIENT: SolanaPubkey.optional(),
  SVC_SOLANA_SWAP_TOKENS: SolanaSwapTokensSetting,
});
export type JupiterSettings = z.infer<typeof JupiterSettingsSchema>;

/** What Solana swap plans need from configuration. */
export interface JupiterConfig {
  /** Unset: no Jupiter source, Solana swap plans are blocked `quote_source_not_configured`. */
  readonly source:
    | {
        readonly baseUrl: string;
        readonly apiKey: string | undefined;
        readonly timeoutMs: number;
        readonly programId: string;
      }
    | undefined;
  /** The wallet the service's swap fee is paid to on Solana; unset blocks Solana swaps. */
  readonly feeRecipient: string | undefined;
  /** Tokens a Solana swap may name, USDC first. */
  readonly tokens: readonly SwapToken[];
}

/** Wrapped SOL: the one Solana token besides USDC known without settings. */
const WSOL: SwapToken = {
  symbol: 'WSOL',
  address: 'So11111111111111111111111111111111111111112',
  decimals: 9,
};

/** The Jupiter configuration from parsed settings and the configured USDC mint. */
export function parseJupiterSettings(env: JupiterSettings, usdcMint: string): JupiterConfig {
  const table = new Map<string, SwapToken>([
    ['USDC', { symbol: 'USDC', address: usdcMint, decimals: 6 }],
    ['WSOL', WSOL],
  ]);
  for (const entry of (env.SVC_SOLANA_SWAP_TOKENS ?? '').split(',').filter((item) => item.trim())) {
    const [symbol = '', address = '', decimals = ''] = entry.trim().split(':');
    table.set(symbol.toUpperCase(), {
      symbol: symbol.toUpperCase(),
      address,
      decimals: Number(decimals),
    });
  }
  return {
    source: env.SVC_JUPITER_BASE_URL
      ? {
          baseUrl: env.SVC_JUPITER_BASE_URL,
          apiKey: env.SVC_JUPITER_API_KEY,
          timeoutMs: env.SVC_JUPITER_TIMEOUT_MS,
          programId: env.SVC_JUPITER_PROGRAM_ID,
        }
      : undefined,
    feeRecipient: env.SVC_SOLANA_SWAP_FEE_RECIPIENT,
    tokens: [...table.values()],
  };
}
