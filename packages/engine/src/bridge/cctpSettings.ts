import { z } from 'zod';
import { EvmAddress } from '@yieldrouter/schemas';
import type { Chain } from '@yieldrouter/schemas';
import { HttpUrlSetting } from '../config/settingTypes';
import { CctpSolanaSuiSettingsSchema, parseCctpSolanaSuiSettings } from './cctpSolanaSuiSettings';
import type { CctpSolanaConfig, CctpSuiConfig } from './cctpSolanaSuiSettings';

/** The attestation windows by speed when unset: 2 h standard, 30 min fast. */
export const ATTESTATION_WINDOW_MS = { standard: 2 * 3_600_000, fast: 30 * 60_000 } as const;

/** How often the bridge watch looks at a failed bridge when unset: every 5 min. */
export const FAILED_BRIDGE_WATCH_MS = 5 * 60_000;

/** How long a lane's CCTP fee schedule is kept when unset: 30 s (0 reads it for every plan). */
export const CCTP_FEE_TTL_MS = 30_000;

/**
 * Iris requests per second per process when unset: the API and the keeper together stay under
 * Circle's 35 per second (past it Circle blocks every request for 5 minutes).
 */
export const CCTP_MAX_REQUESTS_PER_SECOND = 15;

/**
 * Circle CCTP v2 settings: the attestation service (Iris) and, per EVM chain, the TokenMessengerV2
 * and MessageTransmitterV2 addresses. Nothing defaults: a lane whose pieces are unset is blocked
 * `bridge_rail_not_configured` (docs/bridges.md lists Circle's published addresses).
 */
export const CctpSettingsSchema = z.object({
  SVC_CCTP_ATTESTATION_URL: HttpUrlSetting,
  SVC_CCTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4000),
  SVC_CCTP_FEE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(CCTP_FEE_TTL_MS),
  SVC_CCTP_MAX_REQUESTS_PER_SECOND: z.coerce
    .number()
    .int()
    .min(1)
    .max(35)
    .default(CCTP_MAX_REQUESTS_PER_SECOND),
  // How long after the burn settled the attestation may take before the bridge is failed (and
  // rescuable): Circle attests standard transfers after the source's finality (~15–20 min on the
  // L2s), fast ones in seconds; the windows leave room for Circle's own delays.
  SVC_CCTP_ATTESTATION_WINDOW_STANDARD_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(7 * 86_400_000)
    .default(ATTESTATION_WINDOW_MS.standard),
  SVC_CCTP_ATTESTATION_WINDOW_FAST_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(7 * 86_400_000)
    .default(ATTESTATION_WINDOW_MS.fast),
  SVC_BASE_CCTP_TOKEN_MESSENGER: EvmAddress.optional(),
  SVC_BASE_CCTP_MESSAGE_TRANSMITTER: EvmAddress.optional(),
  SVC_ARBITRUM_CCTP_TOKEN_MESSENGER: EvmAddress.optional(),
  SVC_ARBITRUM_CCTP_MESSAGE_TRANSMITTER: EvmAddress.optional(),
  SVC_BASE_BRIDGE_FEE_RECIPIENT: EvmAddress.optional(),
  SVC_ARBITRUM_BRIDGE_FEE_RECIPIENT: EvmAddress.optional(),
  // A failed bridge can still be delivered late (its mint may happen after all): the keeper's
  // bridge watch keeps looking, at this slower cadence instead of every pass.
  SVC_BRIDGE_FAILED_WATCH_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(7 * 86_400_000)
    .default(FAILED_BRIDGE_WATCH_MS),
  /** How far back the keeper's bridge watch searches the destination for a relayed mint. */
  SVC_CCTP_MINT_LOOKBACK_BLOCKS: z.coerce.bigint().min(1n).max(10_000_000n).default(10_000n),
  SVC_BRIDGE_MIN_MICROS: z.coerce
    .bigint()
    .min(1n)
    .max(9_223_372_036_854_775_807n)
    .default(1_000_000n),
  ...CctpSolanaSuiSettingsSchema.shape,
});
export type CctpSettings = z.infer<typeof CctpSettingsSchema>;
type WindowSetting =
  | 'SVC_CCTP_ATTESTATION_WINDOW_STANDARD_MS'
  | 'SVC_CCTP_ATTESTATION_WINDOW_FAST_MS'
  | 'SVC_BRIDGE_FAILED_WATCH_MS'
  | 'SVC_CCTP_FEE_TTL_MS'
  | 'SVC_CCTP_MAX_REQUESTS_PER_SECOND';

export type CctpEvmChain = 'base' | 'arbitrum';

/** One EVM chain's CCTP contracts. */
export interface CctpEvmContracts {
  readonly tokenMessenger: string;
  readonly messageTransmitter: string;
}

/** What bridge plans need from configuration. */
export interface BridgesConfig {
  /** Iris base URL; unset blocks every lane. */
  readonly attestationUrl: string | undefined;
  readonly timeoutMs: number;
  /** A lane's fee schedule is read at most once per this many ms (0: for every plan). */
  readonly feeTtlMs: number;
  /** Iris requests this process may start in any one second (fees and messages together). */
  readonly maxRequestsPerSecond: number;
  /** A settled burn not attested this long after (by speed) fails the bridge. */
  readonly attestationWindowMs: Readonly<Record<'standard' | 'fast', number>>;
  readonly evm: Readonly<Record<CctpEvmChain, CctpEvmContracts | undefined>>;
  /** CCTP v2 on Solana and CCTP on Sui; unset: their lanes are not offered. */
  readonly solana?: CctpSolanaConfig | undefined;
  readonly sui?: CctpSuiConfig | undefined;
  /** Where the service's bridge fee is paid on each source chain; unset blocks it when bps > 0. */
  readonly feeRecipients: Readonly<Partial<Record<Chain, string | undefined>>>;
  /** The smallest bridge the service prepares, in micros. */
  readonly minMicros: bigint;
  /** Blocks back from the latest the bridge watch searches for a relayed mint. */
  readonly mintLookbackBlocks: bigint;
  /** A failed bridge is looked at by the bridge watch once per this many ms (not every pass). */
  readonly failedWatchMs: number;
}

const contracts = (messenger?: string, transmitter?: string): CctpEvmContracts | undefined =>
  messenger && transmitter
    ? { tokenMessenger: messenger, messageTransmitter: transmitter }
    : undefined;

/** The bridge configuration from parsed settings. */
export function parseCctpSettings(
  env: Omit<CctpSettings, WindowSetting> & Partial<Pick<CctpSettings, WindowSetting>>,
): BridgesConfig {
  const other = parseCctpSolanaSuiSettings(env);
  return {
    solana: other.solana,
    sui: other.sui,
    attestationUrl: env.SVC_CCTP_ATTESTATION_URL?.replace(/\/+$/, ''),
    timeoutMs: env.SVC_CCTP_TIMEOUT_MS,
    feeTtlMs: env.SVC_CCTP_FEE_TTL_MS ?? CCTP_FEE_TTL_MS,
    maxRequestsPerSecond: env.SVC_CCTP_MAX_REQUESTS_PER_SECOND ?? CCTP_MAX_REQUESTS_PER_SECOND,
    attestationWindowMs: {
      standard: env.SVC_CCTP_ATTESTATION_WINDOW_STANDARD_MS ?? ATTESTATION_WINDOW_MS.standard,
      fast: env.SVC_CCTP_ATTESTATION_WINDOW_FAST_MS ?? ATTESTATION_WINDOW_MS.fast,
    },
    evm: {
      base: contracts(env.SVC_BASE_CCTP_TOKEN_MESSENGER, env.SVC_BASE_CCTP_MESSAGE_TRANSMITTER),
      arbitrum: contracts(
        env.SVC_ARBITRUM_CCTP_TOKEN_MESSENGER,
        env.SVC_ARBITRUM_CCTP_MESSAGE_TRANSMITTER,
      ),
    },
    feeRecipients: {
      base: env.SVC_BASE_BRIDGE_FEE_RECIPIENT,
      arbitrum: env.SVC_ARBITRUM_BRIDGE_FEE_RECIPIENT,
      ...other.feeRecipients,
    },
    minMicros: env.SVC_BRIDGE_MIN_MICROS,
    mintLookbackBlocks: env.SVC_CCTP_MINT_LOOKBACK_BLOCKS,
    failedWatchMs: env.SVC_BRIDGE_FAILED_WATCH_MS ?? FAILED_BRIDGE_WATCH_MS,
  };
}
