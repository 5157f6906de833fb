import { autoPayRoutes } from '@yieldrouter/schemas';

export const routes = autoPayRoutes;
