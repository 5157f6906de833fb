import type { SettingDescription } from '@yieldrouter/engine';

/** The meaning of each of the API's own settings (those `env.ts` adds to the shared ones). */
export const API_SETTING_DESCRIPTIONS: Readonly<Record<string, SettingDescription>> = {
  HOST: { meaning: 'Where the API listens (address).' },
  PORT: { meaning: 'Where the API listens (port; `0`: any free port).' },
  SVC_DATA_DIR: { meaning: 'Data directory of the embedded PGlite database.' },
  SVC_API_KEYS: {
    meaning:
      'Development/test keys: JSON `[{ "key", "role", "wallets": [] }]`, hashed at load. `"*"` in wallets means every wallet.',
  },
  SVC_RATE_LIMIT_WINDOW_SECONDS: { meaning: 'Fixed rate-limit window.' },
  SVC_RATE_LIMIT_PUBLIC: { meaning: 'Requests per window per IP on public routes.' },
  SVC_RATE_LIMIT_KEYED: { meaning: 'Requests per window per API key.' },
  SVC_BODY_LIMIT_BYTES: { meaning: 'JSON body limit (413 above it).' },
  SVC_TRUST_PROXY: { meaning: 'Trust `X-Forwarded-For` (behind a load balancer).' },
  SVC_DISCOVERY_CACHE_MS: {
    meaning:
      'How long discovery routes (venues, home, discover, strategies, forms, estimates) serve one snapshot of the listing; an APY refresh through the API drops it at once. `0` re-reads every request.',
  },
  SVC_MCP_POLL_MS: {
    meaning:
      'How often `/mcp` re-reads the opportunity list for a session subscribed to it (an APY change notifies); 100 to 3 600 000.',
  },
  SVC_MCP_TOOLSET: {
    meaning:
      'The tools `/mcp` lists: `core` (at most 20, for an agent) or `full` (every client operation but aliases, deprecated ones and secrets). See [Clients](clients.md).',
  },
  SVC_API_KEY_CACHE_MS: {
    meaning:
      'How long a process keeps a key lookup (found or not): a revoked key stops working within this; ≤ 300 000, `0` looks up every request. See [Security](security.md).',
  },
  SVC_AUTH_FREE_FAILURES: {
    meaning:
      'Failed authentications per IP or key prefix before back-off (1, 2, 4, … s). See [Security](security.md).',
  },
  SVC_AUTH_BACKOFF_MAX_SECONDS: { meaning: 'The longest authentication back-off.' },
  SVC_QUEUE_DASHBOARD_WRITE: {
    meaning:
      'Lets `/admin/queues` retry, remove and promote jobs; off, the dashboard is read-only.',
  },
  SVC_CORS_ORIGINS: {
    meaning:
      'Browser origins allowed to call the API, exact `scheme://host[:port]`, comma-separated.',
    default: 'unset (CORS off)',
  },
  SVC_API_LATEST_VERSION: {
    meaning: 'The newest API version (semver). See [Clients](api.md#clients).',
  },
  SVC_API_MIN_SUPPORTED_VERSION: {
    meaning: 'The oldest client version served without a warning (semver; not above the latest).',
  },
  SVC_CLIENT_INSTALL: {
    meaning:
      'How to install the latest client (printable ASCII, ≤ 200), shown by `/svc/version`, `/svc/sdk` and in warnings.',
    default: 'unset (`null`)',
  },
  SVC_CLIENT_RELEASE_URL: {
    meaning: 'Release notes of the latest version (http/https).',
    default: 'unset (`null`)',
  },
  SVC_CLIENT_REPO_URL: {
    meaning: "The client's source repository (http/https).",
    default: 'unset (`null`)',
  },
};
