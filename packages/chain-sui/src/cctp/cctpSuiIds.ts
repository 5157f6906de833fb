/**
 * Where Circle's CCTP v2 packages live on a Sui network (settings; Circle's "Sui packages"
 * reference): TokenMessengerMinterV2, MessageTransmitterV2 and the USDC StablecoinHandler, with
 * their shared objects.
 */
export interface CctpSuiIds {
  readonly tokenMessengerMinterPackage: string;
  readonly messageTransmitterPackage: string;
  /** The StablecoinHandler package: it burns and mints USDC between the two phases. */
  readonly stablecoinHandlerPackage: string;
  /** The shared `token_messenger_minter_v2::state::State`. */
  readonly tokenMessengerMinterState: string;
  /** The shared `message_transmitter_v2::state::State`. */
  readonly messageTransmitterState: string;
  /** The shared `stablecoin_handler::state::State`. */
  readonly stablecoinHandlerState: string;
  /** USDC's shared `Treasury<USDC>` (stablecoin-sui). */
  readonly usdcTreasury: string;
}

/** Sui's system DenyList object (fixed address). */
export const SUI_DENY_LIST_ID = '0x403';

/** Sui's shared Clock (fixed address); `prepare_mint` checks a message's expiry against it. */
export const SUI_CLOCK_ID = '0x6';
