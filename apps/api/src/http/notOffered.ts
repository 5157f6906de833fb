import type { RequestHandler } from 'express';
import { ApiError } from './apiError';
import { guardRequestPart } from './requestGuard';

/**
 * Routes of the peer service (issue 41) this API does not offer on purpose, each answered 404
 * `NOT_OFFERED` with what to use instead (docs/peer-clients.md). They are not in the manifest:
 * no tool or SDK method invites a call that can only be refused.
 */
const NOT_OFFERED: readonly { readonly path: RegExp; readonly message: string }[] = [
  {
    path: /^\/api(?:\/v1)?\/wallets\/[^/]+\/strategies(?:\/[^/]+)?$/,
    message:
      'wallet-created strategies are not offered: the strategies are the venues plus the ' +
      'autopilot (GET /api/v1/svc/strategies); set limits with PUT ' +
      '/api/v1/wallets/{address}/guardrails, deposit with POST /api/v1/svc/strategies/deposit/plan ' +
      'and let the autopilot choose with POST /api/v1/wallets/{address}/autopilot/enable',
  },
  {
    path: /^\/api(?:\/v1)?\/svc\/vaults(?:\/[^/]+(?:\/[a-z]+)?)?$/,
    message:
      'vaults are not offered (the peer deprecates them too): deposit with POST ' +
      '/api/v1/svc/strategies/deposit/plan, withdraw with POST ' +
      '/api/v1/svc/strategies/withdraw/plan and harvest with POST /api/v1/wallets/{address}/harvest',
  },
  {
    path: /^\/api(?:\/v1)?\/wallets\/[^/]+\/profile$/,
    message:
      'wallet profiles are not offered: the service keeps no display names or other profile ' +
      'data for a wallet',
  },
];

/** Answers a peer route this API does not offer; anything else goes on to the 404. */
export const notOfferedHandler: RequestHandler = (req, _res, next) => {
  const found = NOT_OFFERED.find((entry) => entry.path.test(req.path));
  if (!found) {
    next();
    return;
  }
  // The path's segments are checked as any request's are: key material is refused, not echoed.
  guardRequestPart(
    req.path.split('/').map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return '';
      }
    }),
    'path',
  );
  next(new ApiError('NOT_OFFERED', found.message));
};
