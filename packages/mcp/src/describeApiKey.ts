import type { YieldRouterClient } from '@yieldrouter/sdk';
import { YieldRouterError } from '@yieldrouter/sdk';
import type { Audience } from '@yieldrouter/mcp-server';

/** True when the API let the key through (any answer but 401/403 comes after authentication). */
async function keyMayCall(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return true;
  } catch (error) {
    if (!(error instanceof YieldRouterError)) throw error;
    if (error.status === 401) {
      throw new Error(`the API refused SVC_API_KEY: ${error.code}: ${error.message}`, {
        cause: error,
      });
    }
    return error.status !== 403;
  }
}

export interface ApiKeyDescription {
  readonly audience: Audience;
  readonly implemented: ReadonlySet<string>;
}

/**
 * The key's role, asked of the API itself (no route reveals it, so two reads that only one role
 * each passes: listWebhooks is owner-only, listWebhookEvents owner or agent), and the
 * operations the API has handlers for (GET /svc/routes).
 */
export async function describeApiKey(
  client: YieldRouterClient,
  hasKey: boolean,
): Promise<ApiKeyDescription> {
  const catalog = await client.getRoutes();
  const implemented = new Set(
    catalog.routes.filter((route) => route.implemented).map((route) => route.operationId),
  );
  if (!hasKey) return { audience: 'public', implemented };
  if (await keyMayCall(() => client.listWebhooks())) return { audience: 'owner', implemented };
  if (await keyMayCall(() => client.listWebhookEvents())) return { audience: 'agent', implemented };
  return { audience: 'keeper', implemented };
}
