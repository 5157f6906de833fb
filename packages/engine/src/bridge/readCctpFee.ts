import { z } from 'zod';
import { IrisGateError } from './irisGate';

const FeeResponse = z
  .array(z.object({ finalityThreshold: z.number().int(), minimumFee: z.number().min(0) }))
  .min(1);

/** One lane's fee schedule: the minimum fee (bps, may be fractional) per finality threshold. */
export type CctpFeeSchedule = readonly {
  readonly finalityThreshold: number;
  readonly minimumFee: number;
}[];

export interface ReadCctpFeesParameters {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly sourceDomain: number;
  readonly destinationDomain: number;
  readonly fetch?: typeof fetch;
}

export type ReadCctpFeesReturnType =
  | { readonly status: 'ok'; readonly fees: CctpFeeSchedule }
  | { readonly status: 'unavailable'; readonly detail: string };

export type ReadCctpFeeReturnType =
  /** The fee in bps (may be fractional) for transfers at this finality threshold. */
  | { readonly status: 'ok'; readonly feeBps: number }
  | { readonly status: 'unavailable'; readonly detail: string };

/**
 * `GET {baseUrl}/v2/burn/USDC/fees/{source}/{destination}`: the lane's whole fee schedule (one
 * entry per finality threshold), fail-closed.
 *
 * @example
 * await readCctpFees({ baseUrl, timeoutMs: 4000, sourceDomain: 6, destinationDomain: 3 })
 * // { status: 'ok', fees: [{ finalityThreshold: 1000, minimumFee: 1 }, { finalityThreshold: 2000, minimumFee: 0 }] }
 */
export async function readCctpFees(
  parameters: ReadCctpFeesParameters,
): Promise<ReadCctpFeesReturnType> {
  const url = `${parameters.baseUrl}/v2/burn/USDC/fees/${parameters.sourceDomain}/${parameters.destinationDomain}`;
  try {
    const response = await (parameters.fetch ?? fetch)(url, {
      signal: AbortSignal.timeout(parameters.timeoutMs),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { status: 'unavailable', detail: `the fee endpoint answered ${response.status}` };
    }
    const parsed = FeeResponse.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success)
      return { status: 'unavailable', detail: 'the fee endpoint answered garbage' };
    return { status: 'ok', fees: parsed.data };
  } catch (error) {
    if (error instanceof IrisGateError) return { status: 'unavailable', detail: error.message };
    const name = error instanceof Error ? error.name : '';
    return {
      status: 'unavailable',
      detail:
        name === 'TimeoutError' ? 'the fee endpoint timed out' : 'the fee endpoint did not answer',
    };
  }
}

/** The fee (bps) a schedule lists for a finality threshold; one it does not list is unavailable. */
export function cctpFeeAt(
  fees: CctpFeeSchedule,
  minFinalityThreshold: number,
): ReadCctpFeeReturnType {
  const entry = fees.find((item) => item.finalityThreshold === minFinalityThreshold);
  if (!entry) {
    return {
      status: 'unavailable',
      detail: `the fee endpoint lists no fee for finality threshold ${minFinalityThreshold}`,
    };
  }
  return { status: 'ok', feeBps: entry.minimumFee };
}
