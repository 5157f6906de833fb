import { z } from 'zod';
import { EvmAddress } from '@yieldrouter/schemas';
import { HttpUrlSetting } from '../config/settingTypes';
import type { SwapToken } from './swapQuoteSource';

/** Canonical WETH on the two EVM chains (the only tokens besides USDC known without settings). */
const WETH = {
  base: '0x4200000000000000000000000000000000000006',
  arbitrum: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
} as const;

/** `SYMBOL:0xaddress:decimals`, comma-separated. */
const SwapTokensSetting = z
  .string()
  .regex(
    /^\s*[A-Za-z0-9.]{1,16}:0x[0-9a-fA-F]{40}:[0-9]{1,2}\s*(,\s*[A-Za-z0-9.]{1,16}:0x[0-9a-fA-F]{40}:[0-9]{1,2}\s*)*$/,
    {
      error: 'must be SYMBOL:0xaddress:decimals[,…]',
    },
  )
  .optional();

/** The swap settings (0x quote source, fee recipients, token tables), read by every process. */
export const SwapSettingsSchema = z.object({
  SVC_ZEROX_BASE_URL: HttpUrlSetting,
  SVC_ZEROX_API_KEY: z.string().min(1).max(256).optional(),
  SVC_ZEROX_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4000),
  SVC_SWAP_QUOTE_TTL_SECONDS: z.coerce.number().int().min(5).max(600).default(30),
  SVC_BASE_SWAP_FEE_RECIPIENT: EvmAddress.optional(),
  SVC_ARBITRUM_SWAP_FEE_RECIPIENT: EvmAddress.optional(),
  SVC_BASE_SWAP_TOKENS: SwapTokensSetting,
  SVC_ARBITRUM_SWAP_TOKENS: SwapTokensSetting,
});
export type SwapSettings = z.infer<typeof SwapSettingsSchema>;

export type SwapChain = 'base' | 'arbitrum';

/** What swap plans need from configuration. */
export interface SwapsConfig {
  /** Unset: no 0x source, swap plans are blocked `quote_source_not_configured`. */
  readonly zeroEx:
    | { readonly baseUrl: string; readonly apiKey: string | undefined; readonly timeoutMs: number }
    | undefined;
  readonly quoteTtlMs: number;
  /** Where the service's swap fee is paid on each chain; unset blocks that chain's swaps. */
  readonly feeRecipients: Readonly<Record<SwapChain, string | undefined>>;
  /** Tokens a swap may name on each chain, USDC first. */
  readonly tokens: Readonly<Record<SwapChain, readonly SwapToken[]>>;
}

function tokenTable(usdc: string, chain: SwapChain, extra: string | undefined): SwapToken[] {
  const table = new Map<string, SwapToken>([
    ['USDC', { symbol: 'USDC', address: usdc, decimals: 6 }],
    ['WETH', { symbol: 'WETH', address: WETH[chain], decimals: 18 }],
  ]);
  for (const entry of (extra ?? '').split(',').filter((item) => item.trim())) {
    const [symbol = '', address = '', decimals = ''] = entry.trim().split(':');
    table.set(symbol.toUpperCase(), {
      symbol: symbol.toUpperCase(),
      address,
      decimals: Number(decimals),
    });
  }
  return [...table.values()];
}

/** The swap configuration from parsed settings and each chain's USDC address. */
export function parseSwapSettings(
  env: SwapSettings,
  usdc: Readonly<Record<SwapChain, string>>,
): SwapsConfig {
  return {
    zeroEx: env.SVC_ZEROX_BASE_URL
      ? {
          baseUrl: env.SVC_ZEROX_BASE_URL,
          apiKey: env.SVC_ZEROX_API_KEY,
          timeoutMs: env.SVC_ZEROX_TIMEOUT_MS,
        }
      : undefined,
    quoteTtlMs: env.SVC_SWAP_QUOTE_TTL_SECONDS * 1000,
    feeRecipients: {
      base: env.SVC_BASE_SWAP_FEE_RECIPIENT,
      arbitrum: env.SVC_ARBITRUM_SWAP_FEE_RECIPIENT,
    },
    tokens: {
      base: tokenTable(usdc.base, 'base', env.SVC_BASE_SWAP_TOKENS),
      arbitrum: tokenTable(usdc.arbitrum, 'arbitrum', env.SVC_ARBITRUM_SWAP_TOKENS),
    },
  };
}
