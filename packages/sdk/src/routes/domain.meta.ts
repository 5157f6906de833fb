import { metaRoutes } from '@yieldrouter/schemas';

export const routes = metaRoutes;
