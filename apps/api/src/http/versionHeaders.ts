import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientVersionPolicy } from '@yieldrouter/schemas';
import { clientVersionStatus, isSemver } from '@yieldrouter/schemas';

const WARNING_CACHE_SIZE = 64;

/**
 * Version negotiation on every answer: `API-Version` and `X-SVC-API-Version` (this server),
 * `X-SVC-API-Latest`, `X-SVC-API-Min`; a client that names its version in
 * `X-SVC-API-Client-Version` below the minimum (or unreadably) also gets `X-SVC-API-Warning`.
 * Never a refusal in v1. The constant values are computed once; a warning is computed once per
 * distinct client version (a few at a time in practice; the cache is bounded).
 */
export function versionHeaders(
  apiVersion: string,
  policy: ClientVersionPolicy,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { latestVersion, minSupportedVersion } = policy;
  const warnings = new Map<string, string | null>();
  const warningFor = (client: string): string | null => {
    const cached = warnings.get(client);
    if (cached !== undefined) return cached;
    const status = isSemver(client) ? clientVersionStatus(policy, client) : null;
    const warning = !status
      ? 'X-SVC-API-Client-Version is not a semantic version (such as 1.0.0); ignored'
      : status.belowMinimum
        ? status.message
        : null;
    if (warnings.size >= WARNING_CACHE_SIZE) warnings.clear();
    warnings.set(client, warning);
    return warning;
  };
  return (req, res) => {
    res.setHeader('API-Version', apiVersion);
    res.setHeader('X-SVC-API-Version', apiVersion);
    res.setHeader('X-SVC-API-Latest', latestVersion);
    res.setHeader('X-SVC-API-Min', minSupportedVersion);
    const client = req.headers['x-svc-api-client-version'];
    if (typeof client === 'string') {
      const warning = warningFor(client);
      if (warning !== null) res.setHeader('X-SVC-API-Warning', warning);
    }
  };
}
