import type { Transaction, TransactionObjectArgument } from '@mysten/sui/transactions';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { normalizeSuiOwner } from '../address';
import { pureBytes, sameBytes } from '../legCall';
import type { TransactionInputView } from '../shapes';

/**
 * The only package a wallet leg may call: the Sui framework (`0x2`), for the coin handling a
 * wallet adds when it resolves the USDC coin (e.g. `0x2::coin::zero`, address-balance redeems).
 */
export const SUI_FRAMEWORK = normalizeSuiAddress('0x2');

/**
 * A wallet leg (a route or an exit with no venue): liquid USDC on Sui stays in the owner's own
 * wallet, so the leg moves nothing anywhere. The owner proves they hold `coin` (a USDC coin of
 * the leg's amount the wallet splits off their coins) by sending it to themselves, with the plan
 * id as a `vector<u8>` pure input. Only the owner's own commands (SplitCoins, MergeCoins,
 * TransferObjects) and nothing of ours or of any other package: the transaction can succeed only
 * if the owner holds the amount, and its effects name the coin it created, which the receipt reads.
 */
export function appendWalletProof(
  tx: Transaction,
  leg: { readonly planBytes: Uint8Array; readonly owner: string },
  coin: TransactionObjectArgument,
): void {
  appendPlanTaggedSend(tx, leg.planBytes, coin, leg.owner);
}

/**
 * The plan id as a `vector<u8>` pure input, then `coin` sent to `recipient` (TransferObjects):
 * the whole of a wallet leg (to the owner) and of a transfer leg (to the payee).
 */
export function appendPlanTaggedSend(
  tx: Transaction,
  planBytes: Uint8Array,
  coin: TransactionObjectArgument,
  recipient: string,
): void {
  tx.pure.vector('u8', planBytes);
  tx.transferObjects([coin], tx.pure.address(recipient));
}

export type WalletProofMatch =
  { readonly status: 'matched' } | { readonly status: 'mismatch'; readonly reason: string };

/**
 * Whether a transaction is a wallet leg's (or a transfer leg's) own, from its input alone (a
 * failed transaction writes nothing): sent by the owner, carrying this plan's 16-byte id as a `vector<u8>` pure input, and
 * calling no Move function outside the Sui framework.
 */
export function matchWalletProof(
  tx: TransactionInputView,
  expected: { readonly owner: string; readonly planBytes: Uint8Array },
): WalletProofMatch {
  if (normalizeSuiOwner(tx.sender) !== expected.owner) {
    return { status: 'mismatch', reason: `sent by ${tx.sender}, not the owner` };
  }
  const foreign = tx.moveCalls.find((call) => normalizeSuiOwner(call.package) !== SUI_FRAMEWORK);
  if (foreign) {
    return {
      status: 'mismatch',
      reason: `it calls ${foreign.package}::${foreign.module}::${foreign.function}; a wallet or transfer leg calls no package`,
    };
  }
  if (!tx.inputs.some((input) => sameBytes(pureBytes(input), expected.planBytes))) {
    return { status: 'mismatch', reason: 'the transaction carries another plan id' };
  }
  return { status: 'matched' };
}
