import { z } from 'zod';
import { SuiObjectId } from '@yieldrouter/schemas';
import { HttpUrlSetting } from '../config/settingTypes';
import type { SwapToken } from './swapQuoteSource';

/** A Sui address or object id in full form (0x + 64 lowercase hex). */
export const fullSuiId = (id: string): string =>
  `0x${id.replace(/^0x/i, '').toLowerCase().padStart(64, '0')}`;

/** A plain Move coin type (`0x…::module::Name`, no type arguments) with its address in full. */
export function fullCoinType(coinType: string): string {
  const [address = '', ...rest] = coinType.split('::');
  return [fullSuiId(address), ...rest].join('::');
}

/** The Cetus (Sui swap) settings, for the Sui network the service is configured on. */
export const CetusSettingsSchema = z.object({
  SVC_CETUS_BASE_URL: HttpUrlSetting,
  SVC_CETUS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4000),
  SVC_CETUS_AGGREGATOR_PACKAGE_ID: SuiObjectId.optional(),
  SVC_CETUS_GLOBAL_CONFIG_ID: SuiObjectId.optional(),
  SVC_SUI_SWAP_FEE_RECIPIENT: SuiObjectId.optional(),
});
export type CetusSettings = z.infer<typeof CetusSettingsSchema>;

/** What Sui swap plans need from configuration. */
export interface CetusConfig {
  /** Unset (or without its package ids): no Cetus source, Sui swap plans are blocked. */
  readonly source:
    | {
        readonly baseUrl: string;
        readonly timeoutMs: number;
        readonly packageId: string;
        readonly globalConfigId: string;
      }
    | undefined;
  /** The first setting a source still needs, for the blocker (undefined when configured). */
  readonly missing: string | undefined;
  /** Where the service's swap fee is paid on Sui; unset blocks Sui swaps that charge one. */
  readonly feeRecipient: string | undefined;
  /** Tokens a Sui swap may name, USDC first (address = full Move coin type). */
  readonly tokens: readonly SwapToken[];
}

/** The Cetus configuration from parsed settings and the Sui USDC coin type. */
export function parseCetusSettings(env: CetusSettings, usdcCoinType: string): CetusConfig {
  const { SVC_CETUS_BASE_URL: baseUrl } = env;
  const { SVC_CETUS_AGGREGATOR_PACKAGE_ID: packageId } = env;
  const { SVC_CETUS_GLOBAL_CONFIG_ID: globalConfigId } = env;
  const missing = !baseUrl
    ? 'SVC_CETUS_BASE_URL'
    : !packageId
      ? 'SVC_CETUS_AGGREGATOR_PACKAGE_ID'
      : !globalConfigId
        ? 'SVC_CETUS_GLOBAL_CONFIG_ID'
        : undefined;
  return {
    source:
      baseUrl && packageId && globalConfigId
        ? {
            baseUrl,
            timeoutMs: env.SVC_CETUS_TIMEOUT_MS,
            packageId: fullSuiId(packageId),
            globalConfigId: fullSuiId(globalConfigId),
          }
        : undefined,
    missing,
    feeRecipient: env.SVC_SUI_SWAP_FEE_RECIPIENT
      ? fullSuiId(env.SVC_SUI_SWAP_FEE_RECIPIENT)
      : undefined,
    tokens: [
      { symbol: 'USDC', address: fullCoinType(usdcCoinType), decimals: 6 },
      { symbol: 'SUI', address: fullCoinType('0x2::sui::SUI'), decimals: 9 },
    ],
  };
}
