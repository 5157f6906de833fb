import { planRoutes } from '@yieldrouter/schemas';

export const routes = planRoutes;
