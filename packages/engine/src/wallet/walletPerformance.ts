import { readStakedPositions } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { Opportunity } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { ledgerWallet } from './walletAddress';

/**
 * GET /wallets/{address}/performance (svc-wallet-performance.v1): realized yield, principal and
 * current value of the wallet's staked positions, and their live APY weighted by what each holds.
 */
export async function readWalletPerformance(
  db: Books,
  adapters: ChainAdapters,
  address: string,
  listing: readonly Opportunity[],
  now: Date,
) {
  const wallet = ledgerWallet(adapters, address);
  const positions = await readStakedPositions(db, wallet);
  let realized = 0n;
  let principal = 0n;
  let current = 0n;
  let weighted = 0n;
  let apyKnown = true;
  for (const position of positions) {
    realized += position.harvestedMicros;
    principal += position.principalMicros > 0n ? position.principalMicros : 0n;
    current += position.balanceMicros;
    if (position.balanceMicros === 0n) continue;
    const apy = listing.find(
      (entry) => entry.opportunityId === position.opportunityId,
    )?.grossApyBps;
    if (apy === null || apy === undefined) apyKnown = false;
    else weighted += BigInt(apy) * position.balanceMicros;
  }
  return {
    schemaVersion: 'svc-wallet-performance.v1' as const,
    wallet,
    realizedYieldMicros: formatMicros(realized),
    principalMicros: formatMicros(principal),
    currentMicros: formatMicros(current),
    // The live APY of the positions, weighted by what each holds; null when any is unknown
    // or nothing is staked (never a guess).
    apyBps: apyKnown && current > 0n ? Number(weighted / current) : null,
    asOf: now.toISOString(),
  };
}
