import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import { fromHex } from '@mysten/sui/utils';
import { InvalidChainInputError, isPlanId } from '@yieldrouter/schemas';
import type { LegBuild, UnsignedLeg } from '@yieldrouter/schemas';
import { requireSuiAddress } from '../address';
import type { CctpSuiIds } from './cctpSuiIds';
import { SUI_CLOCK_ID, SUI_DENY_LIST_ID } from './cctpSuiIds';

/** The intent the owner's wallet resolves into USDC coins (merge + split) at signing time. */
const WALLET_INTENTS = ['CoinWithBalance'];
const U64_MAX = (1n << 64n) - 1n;
const HEX = /^0x(?:[0-9a-fA-F]{2})+$/;

export interface BuildCctpSuiBurnParameters {
  readonly planId: string;
  readonly owner: string;
  readonly amountMicros: bigint;
  readonly destinationDomain: number;
  /** The recipient on the destination chain as bytes32 (0x + 64 hex); a Sui `address` arg. */
  readonly mintRecipient: `0x${string}`;
  /** The most the rail may keep on the destination (`max_fee`, below the amount). */
  readonly maxFeeMicros: bigint;
  /** CCTP v2 finality the burn asks for (2000 finalized, 1000 fast). */
  readonly minFinalityThreshold: number;
  /** The service's bridge fee, paid in the same transaction. */
  readonly serviceFee?: { readonly recipient: string; readonly amountMicros: bigint };
  readonly summary: string;
}

export interface BuildCctpSuiMintParameters {
  readonly planId: string;
  readonly owner: string;
  readonly amountMicros: bigint;
  readonly message: string;
  readonly attestation: string;
  readonly summary: string;
}

function leg(
  parameters: { planId: string; amountMicros: bigint; summary: string },
  action: 'burn' | 'mint',
  transaction: string,
): LegBuild {
  const built: UnsignedLeg = {
    chain: 'sui',
    action,
    summary: parameters.summary,
    planId: parameters.planId,
    amountMicros: parameters.amountMicros,
    settles: action === 'burn',
    payload: { encoding: 'sui-transaction-json', transaction },
  };
  return { status: 'prepared', legs: [built] };
}

/** A transaction the owner sends, once the plan, the amount and the owner are checked. */
function ownerTransaction(parameters: { planId: string; amountMicros: bigint; owner: string }) {
  if (!isPlanId(parameters.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  if (parameters.amountMicros <= 0n || parameters.amountMicros > U64_MAX) {
    throw new InvalidChainInputError('amountMicros', 'amountMicros: must be a positive u64');
  }
  const tx = new Transaction();
  tx.setSender(requireSuiAddress('owner', parameters.owner));
  return tx;
}

/** The handler's witness type `complete_burn` / `complete_mint` check it against. */
const handlerAuth = (ids: CctpSuiIds) => `${ids.stablecoinHandlerPackage}::handler::Auth`;

/**
 * The burn side of CCTP v2 from Sui, unresolved like every Sui leg (`Transaction.toJSON()`: the
 * owner's wallet picks the USDC coins and gas, then signs): the service fee as a USDC coin to its
 * recipient (when there is one), then the three calls the packages require in one transaction
 * (their hot potatoes make any other order fail):
 * `token_messenger_minter_v2::deposit_for_burn::deposit_for_burn<USDC>(coin, destination_domain,
 * mint_recipient, destination_caller = @0x0, max_fee, min_finality_threshold, hook_data = [],
 * tmm_state)` → `stablecoin_handler::handler::burn(handler_state, burn_receipt, coin, deny_list,
 * treasury)` → `deposit_for_burn::complete_burn<USDC, handler::Auth>(ticket, tmm_state,
 * mt_state)`, which sends the message and emits `DepositForBurn`. Built offline.
 *
 * @throws InvalidChainInputError for a bad owner, planId, amount, fee, maxFee or mintRecipient.
 */
export async function buildCctpSuiBurn(
  usdcCoinType: string,
  ids: CctpSuiIds,
  parameters: BuildCctpSuiBurnParameters,
): Promise<LegBuild> {
  const tx = ownerTransaction(parameters);
  if (!/^0x[0-9a-fA-F]{64}$/.test(parameters.mintRecipient)) {
    throw new InvalidChainInputError('mintRecipient', 'mintRecipient: must be 0x + 64 hex');
  }
  if (parameters.maxFeeMicros < 0n || parameters.maxFeeMicros >= parameters.amountMicros) {
    throw new InvalidChainInputError('maxFeeMicros', 'maxFeeMicros: must be below the amount');
  }
  const fee = parameters.serviceFee;
  if (fee && fee.amountMicros > 0n) {
    const recipient = requireSuiAddress('serviceFee.recipient', fee.recipient);
    tx.transferObjects(
      [coinWithBalance({ type: usdcCoinType, balance: fee.amountMicros })],
      recipient,
    );
  }
  const tmm = ids.tokenMessengerMinterPackage;
  const [burnReceipt, coin] = tx.moveCall({
    target: `${tmm}::deposit_for_burn::deposit_for_burn`,
    typeArguments: [usdcCoinType],
    arguments: [
      coinWithBalance({ type: usdcCoinType, balance: parameters.amountMicros }),
      tx.pure.u32(parameters.destinationDomain),
      tx.pure.address(parameters.mintRecipient),
      tx.pure.address('0x0'),
      tx.pure.u256(parameters.maxFeeMicros),
      tx.pure.u32(parameters.minFinalityThreshold),
      tx.pure.vector('u8', []),
      tx.object(ids.tokenMessengerMinterState),
    ],
  });
  if (!burnReceipt || !coin) throw new Error('deposit_for_burn: no results');
  const ticket = tx.moveCall({
    target: `${ids.stablecoinHandlerPackage}::handler::burn`,
    arguments: [
      tx.object(ids.stablecoinHandlerState),
      burnReceipt,
      coin,
      tx.object(SUI_DENY_LIST_ID),
      tx.object(ids.usdcTreasury),
    ],
  });
  tx.moveCall({
    target: `${tmm}::deposit_for_burn::complete_burn`,
    typeArguments: [usdcCoinType, handlerAuth(ids)],
    arguments: [
      ticket,
      tx.object(ids.tokenMessengerMinterState),
      tx.object(ids.messageTransmitterState),
    ],
  });
  return leg(parameters, 'burn', await tx.toJSON({ supportedIntents: WALLET_INTENTS }));
}

/**
 * The mint side of CCTP v2 on Sui as one programmable transaction, in the order the packages
 * require: `message_transmitter_v2::receive_message::receive_message(message, attestation,
 * mt_state)` → `token_messenger_minter_v2::handle_receive_message::prepare_mint<USDC>(receipt,
 * tmm_state, clock)` → `stablecoin_handler::handler::mint(handler_state, mint_receipt, tmm_state,
 * treasury, deny_list)` (mints to the message's recipient, the fee to the rail's recipient) →
 * `handle_receive_message::complete_mint<USDC, handler::Auth>(ticket, tmm_state, mt_state)`
 * (emits `MintAndWithdraw`, then `MessageReceived`). Anyone may submit it; it mints only to the
 * recipient the burn named.
 *
 * @throws InvalidChainInputError for a bad owner, planId or non-hex message/attestation.
 */
export async function buildCctpSuiMint(
  usdcCoinType: string,
  ids: CctpSuiIds,
  parameters: BuildCctpSuiMintParameters,
): Promise<LegBuild> {
  const tx = ownerTransaction(parameters);
  if (!HEX.test(parameters.message) || !HEX.test(parameters.attestation)) {
    throw new InvalidChainInputError('message', 'message, attestation: must be 0x-prefixed hex');
  }
  const tmm = ids.tokenMessengerMinterPackage;
  const receipt = tx.moveCall({
    target: `${ids.messageTransmitterPackage}::receive_message::receive_message`,
    arguments: [
      tx.pure.vector('u8', fromHex(parameters.message)),
      tx.pure.vector('u8', fromHex(parameters.attestation)),
      tx.object(ids.messageTransmitterState),
    ],
  });
  const mintReceipt = tx.moveCall({
    target: `${tmm}::handle_receive_message::prepare_mint`,
    typeArguments: [usdcCoinType],
    arguments: [receipt, tx.object(ids.tokenMessengerMinterState), tx.object(SUI_CLOCK_ID)],
  });
  const ticket = tx.moveCall({
    target: `${ids.stablecoinHandlerPackage}::handler::mint`,
    arguments: [
      tx.object(ids.stablecoinHandlerState),
      mintReceipt,
      tx.object(ids.tokenMessengerMinterState),
      tx.object(ids.usdcTreasury),
      tx.object(SUI_DENY_LIST_ID),
    ],
  });
  tx.moveCall({
    target: `${tmm}::handle_receive_message::complete_mint`,
    typeArguments: [usdcCoinType, handlerAuth(ids)],
    arguments: [
      ticket,
      tx.object(ids.tokenMessengerMinterState),
      tx.object(ids.messageTransmitterState),
    ],
  });
  return leg(parameters, 'mint', await tx.toJSON());
}
