import type { Hex } from 'viem';
import type { AddCctpParameters, SuiCctpRemote } from './cctpBed';
import { createCctpBed } from './cctpBed';
import { defineCctpBurn } from './cctpBurn';
import { defineCctpMint } from './cctpMint';
import type { SuiFakeSharedRef, SuiFakeState } from './state';

export type { AddCctpParameters, SuiCctpRemote } from './cctpBed';
export { SUI_CCTP_DOMAIN } from './cctpBed';

/** Circle's CCTP v2 packages as the fake runs them (the ids the SVC_CCTP_SUI_* settings name). */
export interface SuiFakeCctp {
  readonly tokenMessengerMinterPackage: string;
  readonly messageTransmitterPackage: string;
  readonly stablecoinHandlerPackage: string;
  readonly tokenMessengerMinterState: SuiFakeSharedRef;
  readonly messageTransmitterState: SuiFakeSharedRef;
  readonly stablecoinHandlerState: SuiFakeSharedRef;
  readonly usdcTreasury: SuiFakeSharedRef;
  /** The message sender remote chains register as Sui's token messenger (bytes32). */
  readonly tokenMessengerIdentifier: Hex;
  /** USDC's token id (`calculate_token_id<USDC>`), the burn token Sui burns name (bytes32). */
  readonly usdcTokenId: Hex;
  /** USDC minted minus burned by the packages since they were laid down. */
  supplyChange(): bigint;
  /** Whether a message nonce (bytes32 hex) was received. */
  nonceUsed(nonce: Hex): boolean;
  /**
   * Registers (or replaces) a remote domain's token messenger and USDC after the packages were
   * laid down, as the admin's `add_remote_token_messenger` and token pair calls do: for a remote
   * whose ids exist only once it was deployed against these packages (Solana's stand-ins).
   */
  addRemote(remote: SuiCctpRemote): void;
}

/**
 * Lays Circle's CCTP v2 packages for Sui into the fake, run with the packages' semantics:
 * `deposit_for_burn<USDC>` → `stablecoin_handler::handler::burn` → `complete_burn<USDC, Auth>`
 * takes the coin (supply down), sends the v2 message (`MessageSent`) and emits `DepositForBurn`;
 * `receive_message` (the bed attester's signature over keccak256(message), destination domain 8,
 * the destination caller, an unused nonce) → `prepare_mint<USDC>` (the remote token messenger,
 * the burn token, the fee bounds, finality ≥ 500) → `handler::mint` (mints to the recipient, the
 * fee to the fee recipient) → `complete_mint<USDC, Auth>` emits `MintAndWithdraw` then
 * `MessageReceived`. Anything else aborts and the transaction moves nothing.
 */
export function addCctp(state: SuiFakeState, parameters: AddCctpParameters): SuiFakeCctp {
  const bed = createCctpBed(state, parameters);
  defineCctpBurn(bed);
  defineCctpMint(bed);
  return {
    tokenMessengerMinterPackage: bed.tmm,
    messageTransmitterPackage: bed.mt,
    stablecoinHandlerPackage: bed.handler,
    tokenMessengerMinterState: bed.tmmState,
    messageTransmitterState: bed.mtState,
    stablecoinHandlerState: bed.handlerState,
    usdcTreasury: bed.treasury,
    tokenMessengerIdentifier: bed.identifier,
    usdcTokenId: bed.usdcTokenId,
    supplyChange: () => bed.counters.supply,
    nonceUsed: (nonce) => bed.usedNonces.has(nonce.toLowerCase()),
    addRemote: (remote) => {
      bed.remotes.set(remote.domain, remote);
    },
  };
}
