import type { ClientRouteDomain, RouteDefinition } from '@yieldrouter/schemas';

type DomainRoutes = { readonly [operationId: string]: Pick<RouteDefinition, 'responses'> };

// One chunk per manifest domain: the core bundle carries no response schema, and a client
// loads a domain's schemas the first time it validates a response of that domain.
const loaders: Record<ClientRouteDomain, () => Promise<{ routes: DomainRoutes }>> = {
  meta: () => import('./domain.meta'),
  discovery: () => import('./domain.discovery'),
  opportunity: () => import('./domain.opportunity'),
  plan: () => import('./domain.plan'),
  wallet: () => import('./domain.wallet'),
  guardrail: () => import('./domain.guardrail'),
  autoPay: () => import('./domain.autoPay'),
  chain: () => import('./domain.chain'),
  swap: () => import('./domain.swap'),
  bridge: () => import('./domain.bridge'),
  autopilot: () => import('./domain.autopilot'),
  webhook: () => import('./domain.webhook'),
  cage: () => import('./domain.cage'),
  peer: () => import('./domain.peer'),
};

const loaded = new Map<ClientRouteDomain, Promise<DomainRoutes>>();

/** The response schemas of one domain's routes, loaded once per process. */
export function responseSchemas(domain: ClientRouteDomain): Promise<DomainRoutes> {
  let routes = loaded.get(domain);
  if (!routes) {
    routes = loaders[domain]().then((module) => module.routes);
    // A failed load (a missing chunk) is not cached: the next call tries again.
    routes.catch(() => loaded.delete(domain));
    loaded.set(domain, routes);
  }
  return routes;
}
