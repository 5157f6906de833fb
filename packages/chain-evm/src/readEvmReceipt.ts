import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { Receipt, ReceiptQuery } from '@yieldrouter/schemas';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { parseLegReceiptQuery } from './parseLegReceiptQuery';
import { readAavePoolRevision } from './readAavePoolRevision';
import { readPlannedEvmTransaction } from './readPlannedEvmTransaction';
import { resolveVenueTarget, targetUnreadable } from './resolveVenueTarget';
import { settledMovement } from './settledMovement';
import { toUnavailable } from './toUnavailable';

/**
 * What the chain says about a leg's transaction, checked against the plan before any amount is
 * believed: sent by the owner, to the venue contract, calldata tagged with this plan. The amount
 * comes from the logs (see `settledMovement`), never from the caller; an Aave leg's shares are
 * rounded as its pool's `POOL_REVISION()` at the receipt's block says (an RPC that no longer
 * holds that block's state answers `unavailable`, never a guess). Order of answers:
 * unknown → `pending`; not the owner's / not tagged for this plan / not to the venue → `mismatch`;
 * reverted → `failed`; no matching money-movement log → `mismatch`; else `confirmed`.
 *
 * @throws InvalidChainInputError for a malformed txId, owner, planId or a venue of another chain.
 * @example
 * await readEvmReceipt(context, { txId, planId, owner, action: 'deposit', target })
 * // { status: 'confirmed', txId, planId, amountMicros: 12_500_000n, shares: 12_000_000n, block: '7' }
 */
export async function readEvmReceipt(context: EvmContext, query: ReceiptQuery): Promise<Receipt> {
  const { txId, owner } = parseLegReceiptQuery(query);
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
  const resolved = await resolveVenueTarget(context, venue);
  if (resolved.status === 'blocked') {
    return targetUnreadable(context, venue, resolved.blockers, what);
  }
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
    const contract = target.standard === 'erc4626' ? target.vault : target.pool;
    const read = await readPlannedEvmTransaction(context.rpc, {
      txId,
      owner,
      planId: query.planId,
      to: contract,
    });
    if (read.status !== 'mined') return read;
    const { receipt } = read;
    const aavePoolRevision =
      target.standard === 'aave-v3'
        ? await readAavePoolRevision(context.rpc, target.pool, receipt.blockNumber)
        : undefined;
    const movement = settledMovement({
      target,
      action: query.action,
      owner,
      usdc: context.usdc,
      logs: receipt.logs,
      ...(aavePoolRevision === undefined ? {} : { aavePoolRevision }),
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
