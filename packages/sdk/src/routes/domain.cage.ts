import { cageRoutes } from '@yieldrouter/schemas';

export const routes = cageRoutes;
