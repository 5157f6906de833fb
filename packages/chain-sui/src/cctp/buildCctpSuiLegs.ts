import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import { fromHex } from '@mysten/sui/utils';
import { InvalidChainInputError, isPlanId } from '@yieldrouter/schemas';
import type { LegBuild, UnsignedLeg } from '@yieldrouter/schemas';
import { requireSuiAddress } from '../address';
import type { CctpSuiIds } from './cctpSuiIds';
import { SUI_DENY_LIST_ID } from './cctpSuiIds';

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

/**
 * The burn side of CCTP from Sui (circlefin/sui-cctp), unresolved like every Sui leg
 * (`Transaction.toJSON()`: the owner's wallet picks the USDC coins and gas, then signs): the
 * service fee as a USDC coin to its recipient (when there is one), then
 * `token_messenger_minter::deposit_for_burn::deposit_for_burn<USDC>(coin, destination_domain,
 * mint_recipient, tmm_state, mt_state, deny_list, treasury)`. Built offline.
 *
 * @throws InvalidChainInputError for a bad owner, planId, amount, fee or mintRecipient.
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
  const fee = parameters.serviceFee;
  if (fee && fee.amountMicros > 0n) {
    const recipient = requireSuiAddress('serviceFee.recipient', fee.recipient);
    tx.transferObjects(
      [coinWithBalance({ type: usdcCoinType, balance: fee.amountMicros })],
      recipient,
    );
  }
  tx.moveCall({
    target: `${ids.tokenMessengerMinterPackage}::deposit_for_burn::deposit_for_burn`,
    typeArguments: [usdcCoinType],
    arguments: [
      coinWithBalance({ type: usdcCoinType, balance: parameters.amountMicros }),
      tx.pure.u32(parameters.destinationDomain),
      tx.pure.address(parameters.mintRecipient),
      tx.object(ids.tokenMessengerMinterState),
      tx.object(ids.messageTransmitterState),
      tx.object(SUI_DENY_LIST_ID),
      tx.object(ids.usdcTreasury),
    ],
  });
  return leg(parameters, 'burn', await tx.toJSON({ supportedIntents: WALLET_INTENTS }));
}

/**
 * The mint side of CCTP on Sui as one programmable transaction, in the order the packages require
 * (the hot-potato receipts make any other order fail): `receive_message` → token messenger's
 * `handle_receive_message<USDC>` (mints to the message's recipient) →
 * `deconstruct_stamp_receipt_ticket_with_burn_message` → `stamp_receipt` →
 * `complete_receive_message`. Anyone may submit it; it mints only to the recipient the burn named.
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
  const mt = ids.messageTransmitterPackage;
  const tmm = ids.tokenMessengerMinterPackage;
  const receipt = tx.moveCall({
    target: `${mt}::receive_message::receive_message`,
    arguments: [
      tx.pure.vector('u8', fromHex(parameters.message)),
      tx.pure.vector('u8', fromHex(parameters.attestation)),
      tx.object(ids.messageTransmitterState),
    ],
  });
  const ticketWithBurn = tx.moveCall({
    target: `${tmm}::handle_receive_message::handle_receive_message`,
    typeArguments: [usdcCoinType],
    arguments: [
      receipt,
      tx.object(ids.tokenMessengerMinterState),
      tx.object(SUI_DENY_LIST_ID),
      tx.object(ids.usdcTreasury),
    ],
  });
  const ticket = tx.moveCall({
    target: `${tmm}::handle_receive_message::deconstruct_stamp_receipt_ticket_with_burn_message`,
    arguments: [ticketWithBurn],
  });
  const stamped = tx.moveCall({
    target: `${mt}::receive_message::stamp_receipt`,
    typeArguments: [`${tmm}::message_transmitter_authenticator::MessageTransmitterAuthenticator`],
    arguments: [ticket, tx.object(ids.messageTransmitterState)],
  });
  tx.moveCall({
    target: `${mt}::receive_message::complete_receive_message`,
    arguments: [stamped, tx.object(ids.messageTransmitterState)],
  });
  return leg(parameters, 'mint', await tx.toJSON());
}
