import type { Blocker, Chain } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { blocker } from '../plan/blocker';

/** The route of the bridge plan a cross-chain deposit or route names. */
export const BRIDGE_PLAN_ROUTE = 'POST /api/v1/svc/bridge/plan';

/** The bridge a cross-chain plan needs first: its two chains, the amount and both addresses. */
export interface BridgeFirst {
  readonly sourceChain: Chain;
  readonly destChain: Chain;
  readonly amountMicros: bigint;
  readonly sourceAddress: string;
  readonly destinationAddress: string;
}

/**
 * Why a deposit or route whose funds are on another chain than its venue's is `blocked` when
 * it was not asked to bridge (nothing moves across chains silently): `bridge_required`, whose
 * details name the bridge plan to run first — its route and the exact body to send. Funds in
 * another token than USDC (`swapFrom`) are swapped into USDC on the source chain first: the
 * details then name that swap and the token, and the body leaves out `amountMicros` — what the
 * swap yields is only known from its quote (never a number in the wrong unit).
 */
export function bridgeRequiredBlocker(
  bridge: BridgeFirst,
  field: string,
  swapFrom?: { readonly symbol: string },
): Blocker {
  const body = {
    sourceChain: bridge.sourceChain,
    destChain: bridge.destChain,
    ...(swapFrom ? {} : { amountMicros: formatMicros(bridge.amountMicros) }),
    sourceAddress: bridge.sourceAddress,
    destinationAddress: bridge.destinationAddress,
  };
  const swapFirst = swapFrom
    ? {
        token: swapFrom.symbol,
        swapFirst:
          `swap the ${swapFrom.symbol} into USDC on ${bridge.sourceChain} first (a swap plan), ` +
          'then bridge the USDC it yields as amountMicros; or send bridge: true for one plan',
      }
    : {};
  return blocker('bridge_required', {
    field,
    details: { route: BRIDGE_PLAN_ROUTE, body: JSON.stringify(body), ...body, ...swapFirst },
  });
}
