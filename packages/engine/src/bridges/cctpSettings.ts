import { z } from 'zod';
import { EvmAddress } from '@yieldrouter/schemas';
import { HttpUrlSetting } from '../config/settingTypes';

/**
 * Circle CCTP v2 settings: the attestation service (Iris) and, per EVM chain, the TokenMessengerV2
 * and MessageTransmitterV2 addresses. Nothing defaults: a lane whose pieces are unset is blocked
 * `bridge_rail_not_configured` (README, Bridges, lists Circle's published addresses).
 */
export const CctpSettingsSchema = z.object({
  SVC_CCTP_ATTESTATION_URL: HttpUrlSetting,
  SVC_CCTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4000),
  SVC_BASE_CCTP_TOKEN_MESSENGER: EvmAddress.optional(),
  SVC_BASE_CCTP_MESSAGE_TRANSMITTER: EvmAddress.optional(),
  SVC_ARBITRUM_CCTP_TOKEN_MESSENGER: EvmAddress.optional(),
  SVC_ARBITRUM_CCTP_MESSAGE_TRANSMITTER: EvmAddress.optional(),
  SVC_BASE_BRIDGE_FEE_RECIPIENT: EvmAddress.optional(),
  SVC_ARBITRUM_BRIDGE_FEE_RECIPIENT: EvmAddress.optional(),
  /** How far back the keeper's bridge watch searches the destination for a relayed mint. */
  SVC_CCTP_MINT_LOOKBACK_BLOCKS: z.coerce.bigint().min(1n).max(10_000_000n).default(10_000n),
  SVC_BRIDGE_MIN_MICROS: z.coerce
    .bigint()
    .min(1n)
    .max(9_223_372_036_854_775_807n)
    .default(1_000_000n),
});
export type CctpSettings = z.infer<typeof CctpSettingsSchema>;

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
  readonly evm: Readonly<Record<CctpEvmChain, CctpEvmContracts | undefined>>;
  /** Where the service's bridge fee is paid on each source chain; unset blocks it when bps > 0. */
  readonly feeRecipients: Readonly<Record<CctpEvmChain, string | undefined>>;
  /** The smallest bridge the service prepares, in micros. */
  readonly minMicros: bigint;
  /** Blocks back from the latest the bridge watch searches for a relayed mint. */
  readonly mintLookbackBlocks: bigint;
}

const contracts = (messenger?: string, transmitter?: string): CctpEvmContracts | undefined =>
  messenger && transmitter
    ? { tokenMessenger: messenger, messageTransmitter: transmitter }
    : undefined;

/** The bridge configuration from parsed settings. */
export function parseCctpSettings(env: CctpSettings): BridgesConfig {
  return {
    attestationUrl: env.SVC_CCTP_ATTESTATION_URL?.replace(/\/+$/, ''),
    timeoutMs: env.SVC_CCTP_TIMEOUT_MS,
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
    },
    minMicros: env.SVC_BRIDGE_MIN_MICROS,
    mintLookbackBlocks: env.SVC_CCTP_MINT_LOOKBACK_BLOCKS,
  };
}
