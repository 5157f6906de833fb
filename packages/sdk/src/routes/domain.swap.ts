import { swapRoutes } from '@yieldrouter/schemas';

export const routes = swapRoutes;
