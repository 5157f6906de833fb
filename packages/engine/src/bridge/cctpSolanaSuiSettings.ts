import { z } from 'zod';
import { SolanaPubkey, SuiObjectId } from '@yieldrouter/schemas';

/**
 * Circle CCTP v2 on Solana (programs) and Sui (TokenMessengerMinterV2, MessageTransmitterV2 and
 * the USDC StablecoinHandler packages): ids per network.
 * Nothing defaults; a chain's lanes appear in `supportedLanes` only when all of its ids are set
 * (docs/bridges.md lists Circle's published mainnet ids).
 */
export const CctpSolanaSuiSettingsSchema = z.object({
  SVC_CCTP_SOLANA_TOKEN_MESSENGER_MINTER: SolanaPubkey.optional(),
  SVC_CCTP_SOLANA_MESSAGE_TRANSMITTER: SolanaPubkey.optional(),
  /** The USDC mint CCTP burns and mints; default SVC_SOLANA_USDC_MINT. */
  SVC_CCTP_SOLANA_USDC_MINT: SolanaPubkey.optional(),
  /** TokenMessengerV2's fee recipient on Solana (a mint there pays the rail's fee to its USDC account). */
  SVC_CCTP_SOLANA_FEE_RECIPIENT: SolanaPubkey.optional(),
  SVC_SOLANA_BRIDGE_FEE_RECIPIENT: SolanaPubkey.optional(),
  SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_PACKAGE: SuiObjectId.optional(),
  SVC_CCTP_SUI_MESSAGE_TRANSMITTER_PACKAGE: SuiObjectId.optional(),
  SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_STATE: SuiObjectId.optional(),
  SVC_CCTP_SUI_MESSAGE_TRANSMITTER_STATE: SuiObjectId.optional(),
  SVC_CCTP_SUI_STABLECOIN_HANDLER_PACKAGE: SuiObjectId.optional(),
  SVC_CCTP_SUI_STABLECOIN_HANDLER_STATE: SuiObjectId.optional(),
  SVC_CCTP_SUI_USDC_TREASURY: SuiObjectId.optional(),
  SVC_SUI_BRIDGE_FEE_RECIPIENT: SuiObjectId.optional(),
});
export type CctpSolanaSuiSettings = z.infer<typeof CctpSolanaSuiSettingsSchema>;

/** CCTP v2 on Solana, when configured. */
export interface CctpSolanaConfig {
  readonly tokenMessengerMinter: string;
  readonly messageTransmitter: string;
  /** Undefined: the chain's USDC mint. */
  readonly usdcMint: string | undefined;
  readonly feeRecipient: string;
}

/** CCTP v2 on Sui, when configured. */
export interface CctpSuiConfig {
  readonly tokenMessengerMinterPackage: string;
  readonly messageTransmitterPackage: string;
  readonly stablecoinHandlerPackage: string;
  readonly tokenMessengerMinterState: string;
  readonly messageTransmitterState: string;
  readonly stablecoinHandlerState: string;
  readonly usdcTreasury: string;
}

/** The Solana and Sui parts of the bridge configuration from parsed settings. */
export function parseCctpSolanaSuiSettings(env: CctpSolanaSuiSettings) {
  const tmm = env.SVC_CCTP_SOLANA_TOKEN_MESSENGER_MINTER;
  const mt = env.SVC_CCTP_SOLANA_MESSAGE_TRANSMITTER;
  const fee = env.SVC_CCTP_SOLANA_FEE_RECIPIENT;
  const solana: CctpSolanaConfig | undefined =
    tmm && mt && fee
      ? {
          tokenMessengerMinter: tmm,
          messageTransmitter: mt,
          usdcMint: env.SVC_CCTP_SOLANA_USDC_MINT,
          feeRecipient: fee,
        }
      : undefined;
  const suiIds = {
    tokenMessengerMinterPackage: env.SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_PACKAGE,
    messageTransmitterPackage: env.SVC_CCTP_SUI_MESSAGE_TRANSMITTER_PACKAGE,
    tokenMessengerMinterState: env.SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_STATE,
    messageTransmitterState: env.SVC_CCTP_SUI_MESSAGE_TRANSMITTER_STATE,
    stablecoinHandlerPackage: env.SVC_CCTP_SUI_STABLECOIN_HANDLER_PACKAGE,
    stablecoinHandlerState: env.SVC_CCTP_SUI_STABLECOIN_HANDLER_STATE,
    usdcTreasury: env.SVC_CCTP_SUI_USDC_TREASURY,
  };
  const sui = Object.values(suiIds).every((id) => id !== undefined)
    ? (suiIds as CctpSuiConfig)
    : undefined;
  return {
    solana,
    sui,
    feeRecipients: {
      solana: env.SVC_SOLANA_BRIDGE_FEE_RECIPIENT,
      sui: env.SVC_SUI_BRIDGE_FEE_RECIPIENT,
    },
  };
}
