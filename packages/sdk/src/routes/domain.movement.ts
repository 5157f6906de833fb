import { movementRoutes } from '@yieldrouter/schemas';

export const routes = movementRoutes;
