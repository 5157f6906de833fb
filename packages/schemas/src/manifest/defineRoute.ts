import type { z } from 'zod';

/** Who may call a route. `public` needs no key; the others need an X-API-Key of that role. */
export type Role = 'owner' | 'agent' | 'keeper';
export type RouteAuth = 'public' | readonly [Role, ...Role[]];

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export interface RouteResponse {
  readonly description: string;
  /** Absent for error responses, which all carry ErrorBody. */
  readonly schema?: z.ZodType;
}

export interface RouteRequestSpec {
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** Header names the route reads (documented in OpenAPI), e.g. Idempotency-Key. */
  readonly headers?: readonly string[];
}

export interface RouteDefinition {
  /** Stable operation id; the SDK method name. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Path under /api/v1 (or the site root when `versioned` is false), with `{param}` segments. */
  readonly path: string;
  /** False only for the unversioned routes at the site root (GET /health, GET /). */
  readonly versioned: boolean;
  /** Extra full paths served by the same handler (besides the computed legacy alias). */
  readonly aliases?: readonly string[];
  readonly auth: RouteAuth;
  /** Path parameter that names the wallet the key must be scoped to. */
  readonly walletParam?: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly request: RouteRequestSpec;
  /** Success responses by status (2xx, and 304 where an ETag is served). Errors are added for every route. */
  readonly responses: Readonly<Record<number, RouteResponse>>;
  readonly deprecated?: boolean;
  /**
   * A state-changing call on a wallet: each call is kept in that wallet's audit trail
   * (`GET /wallets/{address}/audit`) with who made it and how it ended.
   */
  readonly audited?: boolean;
}

/** Identity helper that keeps the literal types of a route for the SDK. */
export function defineRoute<const T extends RouteDefinition>(route: T): T {
  return route;
}

const LEGACY_PREFIXES = ['/svc/', '/wallets/'] as const;

/** The path a route is called at: under /api/v1, or at the site root when unversioned. */
export function canonicalPath(route: Pick<RouteDefinition, 'path' | 'versioned'>): string {
  return route.versioned ? `/api/v1${route.path}` : route.path;
}

/** Full paths a route is served at: the canonical one first, then legacy aliases. */
export function routePaths(route: RouteDefinition): { canonical: string; aliases: string[] } {
  const aliases = [...(route.aliases ?? [])];
  if (route.versioned && LEGACY_PREFIXES.some((prefix) => route.path.startsWith(prefix))) {
    aliases.push(`/api${route.path}`);
  }
  return { canonical: canonicalPath(route), aliases };
}
