import { findBridgeTransfer, listStalledBridges } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { Chain } from '@yieldrouter/schemas';
import type { BridgeRail } from './bridgeRail';
import type { BridgesConfig } from './cctpSettings';
import { markBridgeFailed } from './markBridgeFailed';

export interface ExpireStalledBridgesParameters {
  readonly db: Books;
  /** The rail that reads attestations; none: nothing is expired (nothing could be read). */
  readonly rail: BridgeRail | undefined;
  readonly bridges: Pick<BridgesConfig, 'attestationWindowMs'>;
  readonly now: Date;
  /** Bridges looked at per run, oldest burn first. */
  readonly limit?: number;
}

export interface ExpireStalledBridgesResult {
  /** Marked failed now (`bridge.failed` sent). */
  readonly failed: number;
  /** Past the window but attested meanwhile: left for the delivery (the mint is awaited). */
  readonly attested: number;
  /** Delivered or failed by someone else between the scan and the write. */
  readonly skipped: number;
  /**
   * Not asked this run: the process's attestation-service budget was spent or a 429 hold-off
   * runs, which says nothing about the attestation. Looked at again next run.
   */
  readonly deferred: number;
}

const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;

/**
 * The keeper's bridge expiry: a bridge whose burn settled longer ago than its speed's attestation
 * window (SVC_CCTP_ATTESTATION_WINDOW_<SPEED>_MS) and that is neither delivered nor failed is
 * asked for its attestation once more; still missing (pending, or the service unreadable: no
 * attestation was seen within the window either way), the bridge is marked failed and
 * `bridge.failed` goes out. The amount stays in the owner's `in_flight` — never redirected; the
 * owner rescues it. An attested bridge is left for its mint; one whose read this process did not
 * send (its attestation-service budget spent, or a 429 hold-off) is deferred to the next run.
 * Safe to run again at any point.
 */
export async function expireStalledBridges(
  parameters: ExpireStalledBridgesParameters,
): Promise<ExpireStalledBridgesResult> {
  const { db, rail, now } = parameters;
  const counts = { failed: 0, attested: 0, skipped: 0, deferred: 0 };
  if (!rail) return counts;
  const windows = parameters.bridges.attestationWindowMs;
  const before = (ms: number) => new Date(now.getTime() - ms);
  const planIds = await listStalledBridges(db, {
    settledBefore: { standard: before(windows.standard), fast: before(windows.fast) },
    limit: parameters.limit ?? 100,
  });
  for (const planId of planIds) {
    const transfer = await findBridgeTransfer(db, planId);
    if (!transfer?.burnTxId || transfer.mintTxId !== null || transfer.failedAt !== null) {
      counts.skipped += 1;
      continue;
    }
    const lane = {
      sourceChain: transfer.sourceChain as Chain,
      destChain: transfer.destChain as Chain,
    };
    const attestation = await rail.readAttestation(lane, transfer.burnTxId);
    if (attestation.status === 'complete') {
      counts.attested += 1;
      continue;
    }
    if (attestation.status === 'unavailable' && attestation.notAsked) {
      counts.deferred += 1;
      continue;
    }
    const window = minutes(windows[transfer.speed]);
    const reason =
      `attestation_window_expired: no attestation of the burn ${transfer.burnTxId} within ` +
      `${window} (${transfer.speed}); last answer: ${attestation.detail}`;
    const marked = await markBridgeFailed(db, planId, reason, now);
    counts[marked.status === 'failed' && !marked.replay ? 'failed' : 'skipped'] += 1;
  }
  return counts;
}
