import { InvalidChainInputError, isPlanId } from '@yieldrouter/schemas';
import type { Receipt, ReceiptQuery } from '@yieldrouter/schemas';
import { isAddressEqual } from 'viem';
import type { Hash } from 'viem';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { readPlanTag } from './planTag';
import { resolveVenueTarget, venueUnreadable } from './resolveVenueTarget';
import { settledMovement } from './settledMovement';
import { toUnavailable } from './toUnavailable';

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * What the chain says about a leg's transaction, checked against the plan before any amount is
 * believed: sent by the owner, to the venue contract, calldata tagged with this plan. The amount
 * comes from the logs (see `settledMovement`), never from the caller. Order of answers:
 * unknown → `pending`; not the owner's / not tagged for this plan / not to the venue → `mismatch`;
 * reverted → `failed`; no matching money-movement log → `mismatch`; else `confirmed`.
 *
 * @throws InvalidChainInputError for a malformed txId, owner, planId or a venue of another chain.
 * @example
 * await readEvmReceipt(context, { txId, planId, owner, action: 'deposit', target })
 * // { status: 'confirmed', txId, planId, amountMicros: 12_500_000n, shares: 12_000_000n, block: '7' }
 */
export async function readEvmReceipt(context: EvmContext, query: ReceiptQuery): Promise<Receipt> {
  if (!TX_HASH.test(query.txId)) {
    throw new InvalidChainInputError('txId', 'txId: must be 0x + 64 hex');
  }
  const txId = query.txId.toLowerCase() as Hash;
  const owner = normalizeEvmAddress(query.owner);
  if (!owner) {
    throw new InvalidChainInputError('owner', 'owner: must be 0x + 40 hex (EIP-55 if mixed case)');
  }
  if (!isPlanId(query.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  const what = `receipt of ${txId} on ${context.label}`;
  if (query.target.kind === 'router') {
    return {
      status: 'unavailable',
      reason: 'no_standard_reader',
      detail: `${what}: ${context.label} has no router path, so no router leg can settle`,
    };
  }
  const venue = query.target.venue;
  if (venue.chain !== context.chain) {
    throw new InvalidChainInputError(
      'target',
      `target: venue ${venue.venueId} is not on ${context.chain}`,
    );
  }
  const resolved = resolveVenueTarget(venue);
  if (resolved.status === 'blocked') return venueUnreadable(venue, resolved.blockers, what);
  const target = resolved.target;
  if (target.standard === 'aave-v3' && !context.usdc) {
    return {
      status: 'unavailable',
      reason: 'asset_not_configured',
      detail: `${what}: no USDC address is configured, so the Aave transfer cannot be read`,
    };
  }
  if (!context.rpc) return rpcNotConfigured(context, what);

  try {
    const receipt = await context.rpc.getTransactionReceipt(txId);
    if (!receipt) return { status: 'pending', txId };
    const transaction = await context.rpc.getTransaction(txId);
    if (!transaction) return { status: 'pending', txId };

    if (!isAddressEqual(transaction.from, owner)) {
      return { status: 'mismatch', txId, reason: `sent by ${transaction.from}, not the owner` };
    }
    const taggedPlan = readPlanTag(transaction.input);
    if (taggedPlan !== query.planId) {
      return {
        status: 'mismatch',
        txId,
        reason: taggedPlan ? `tagged for ${taggedPlan}` : 'the calldata carries no plan tag',
      };
    }
    const contract = target.standard === 'erc4626' ? target.vault : target.pool;
    if (!transaction.to || !isAddressEqual(transaction.to, contract)) {
      return {
        status: 'mismatch',
        txId,
        reason: `sent to ${transaction.to ?? 'a new contract'}, not ${contract}`,
      };
    }
    if (receipt.status === 'reverted') {
      return { status: 'failed', txId, reason: `reverted in block ${receipt.blockNumber}` };
    }
    const movement = settledMovement({
      target,
      action: query.action,
      owner,
      usdc: context.usdc,
      logs: receipt.logs,
    });
    if (movement === undefined) {
      return { status: 'mismatch', txId, reason: `no ${query.action} by the owner in the logs` };
    }
    return {
      status: 'confirmed',
      txId,
      planId: query.planId,
      amountMicros: movement.amountMicros,
      shares: movement.shares,
      block: receipt.blockNumber.toString(10),
    };
  } catch (error) {
    return toUnavailable(error, what);
  }
}
