import { discoveryRoutes } from '@yieldrouter/schemas';

export const routes = discoveryRoutes;
