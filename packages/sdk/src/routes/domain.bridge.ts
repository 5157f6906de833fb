import { bridgeRoutes } from '@yieldrouter/schemas';

export const routes = bridgeRoutes;
