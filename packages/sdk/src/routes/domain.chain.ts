import { chainRoutes } from '@yieldrouter/schemas';

export const routes = chainRoutes;
