import type { RouteDefinition } from './defineRoute';
import { keeperRoutes } from './keeperRoutes';
import { clientRoutes } from './routes';

/** The whole manifest: the client routes, then the operator (keeper-only) routes. */
export const routes = { ...clientRoutes, ...keeperRoutes } as const;

export type Routes = typeof routes;
export type OperationId = keyof Routes;

/** The manifest as a list, in declaration order. */
export const routeList: readonly RouteDefinition[] = Object.values(routes);
