/** Where Circle's CCTP packages live on a Sui network (settings; circlefin/sui-cctp). */
export interface CctpSuiIds {
  readonly tokenMessengerMinterPackage: string;
  readonly messageTransmitterPackage: string;
  /** The shared `token_messenger_minter::state::State`. */
  readonly tokenMessengerMinterState: string;
  /** The shared `message_transmitter::state::State`. */
  readonly messageTransmitterState: string;
  /** USDC's shared `Treasury<USDC>` (stablecoin-sui). */
  readonly usdcTreasury: string;
}

/** Sui's system DenyList object (fixed address). */
export const SUI_DENY_LIST_ID = '0x403';
