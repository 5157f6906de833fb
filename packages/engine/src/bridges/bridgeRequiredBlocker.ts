import type { Blocker, Chain } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { blocker } from '../plans/blocker';

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
 * details name the bridge plan to run first — its route and the exact body to send.
 */
export function bridgeRequiredBlocker(bridge: BridgeFirst, field: string): Blocker {
  const body = {
    sourceChain: bridge.sourceChain,
    destChain: bridge.destChain,
    amountMicros: formatMicros(bridge.amountMicros),
    sourceAddress: bridge.sourceAddress,
    destinationAddress: bridge.destinationAddress,
  };
  return blocker('bridge_required', {
    field,
    details: { route: BRIDGE_PLAN_ROUTE, body: JSON.stringify(body), ...body },
  });
}
