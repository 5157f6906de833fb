import createClient from 'openapi-fetch';
import type { paths } from '../.openapi/openapi';

/**
 * A third-party client, written only against the types openapi-typescript generates from the
 * served document (`pnpm typecheck` regenerates them, then type-checks this file). If the
 * document stops describing what clients send and read, this stops compiling.
 */
export function contractClient(baseUrl: string, apiKey: string) {
  return createClient<paths>({ baseUrl, headers: { 'X-API-Key': apiKey } });
}

type ContractClient = ReturnType<typeof contractClient>;

/** Where this client stands, from the version document. */
export async function readVersions(client: ContractClient): Promise<string> {
  const { data, error } = await client.GET('/api/v1/svc/version', {
    params: { query: { client: '1.0.0' }, header: { 'X-SVC-API-Client-Version': '1.0.0' } },
  });
  if (error) return `${error.code}: ${error.message}`;
  const latest: string = data.latestVersion;
  const install: string | null = data.install;
  const belowMinimum: boolean | undefined = data.client?.belowMinimum;
  return `${data.apiVersion} (latest ${latest}, install ${install ?? 'n/a'}, old ${belowMinimum})`;
}

/** Routes funds, then settles the first leg: the owner's flow. */
export async function routeAndSettle(
  client: ContractClient,
  address: string,
  txId: string,
): Promise<string | undefined> {
  const routed = await client.POST('/api/v1/wallets/{address}/route', {
    params: { path: { address }, header: { 'Idempotency-Key': 'contract-1' } },
    body: { amountMicros: '1000000', token: 'USDC', chain: 'base', stake: true },
  });
  if (routed.error) return routed.error.field ?? routed.error.code;
  const planId: string | undefined = routed.data.planId;
  if (routed.data.status === 'blocked' || planId === undefined) return undefined;
  const settled = await client.POST('/api/v1/svc/plans/{planId}/legs/{legIndex}/settle', {
    params: { path: { planId, legIndex: 0 } },
    body: { txId },
  });
  return settled.data?.status;
}

/** Mistakes the generated types must catch (each line fails to compile without its marker). */
export async function misuse(client: ContractClient): Promise<void> {
  await client.POST('/api/v1/wallets/{address}/withdraw', {
    params: { path: { address: '0x1' } },
    // @ts-expect-error not a chain the document lists
    body: { amountMicros: '5000000', chain: 'ethereum' },
  });
  // @ts-expect-error no such route
  await client.GET('/api/v1/svc/nope');
  await client.GET('/api/v1/svc/version', {
    // @ts-expect-error unknown query parameter
    params: { query: { clientVersion: '1.0.0' } },
  });
}

/** The wallet's audit trail, page after page. */
export async function readAudit(client: ContractClient, address: string): Promise<string[]> {
  const lines: string[] = [];
  let cursor: string | undefined;
  do {
    const { data, error } = await client.GET('/api/v1/wallets/{address}/audit', {
      params: { path: { address }, query: { limit: 100, ...(cursor ? { cursor } : {}) } },
    });
    if (error) throw new Error(error.code);
    for (const event of data.events) {
      const planId: string | null = event.planId;
      lines.push(`${event.at} ${event.actor.role} ${event.operation} ${event.outcome} ${planId}`);
    }
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  return lines;
}
