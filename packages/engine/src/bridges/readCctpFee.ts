import { z } from 'zod';

const FeeResponse = z
  .array(z.object({ finalityThreshold: z.number().int(), minimumFee: z.number().min(0) }))
  .min(1);

export interface ReadCctpFeeParameters {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly sourceDomain: number;
  readonly destinationDomain: number;
  readonly minFinalityThreshold: number;
  readonly fetch?: typeof fetch;
}

export type ReadCctpFeeReturnType =
  /** The fee in bps (may be fractional) for transfers at this finality threshold. */
  | { readonly status: 'ok'; readonly feeBps: number }
  | { readonly status: 'unavailable'; readonly detail: string };

/**
 * `GET {baseUrl}/v2/burn/USDC/fees/{source}/{destination}`: the rail's minimum fee (bps) for the
 * asked finality threshold, fail-closed (a threshold the answer does not list is unavailable).
 *
 * @example
 * await readCctpFee({ baseUrl, timeoutMs: 4000, sourceDomain: 6, destinationDomain: 3, minFinalityThreshold: 2000 })
 * // { status: 'ok', feeBps: 0 }
 */
export async function readCctpFee(
  parameters: ReadCctpFeeParameters,
): Promise<ReadCctpFeeReturnType> {
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
    const entry = parsed.success
      ? parsed.data.find((item) => item.finalityThreshold === parameters.minFinalityThreshold)
      : undefined;
    if (!entry) return { status: 'unavailable', detail: 'the fee endpoint answered garbage' };
    return { status: 'ok', feeBps: entry.minimumFee };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    return {
      status: 'unavailable',
      detail:
        name === 'TimeoutError' ? 'the fee endpoint timed out' : 'the fee endpoint did not answer',
    };
  }
}
