import { peerRoutes } from '@yieldrouter/schemas';

export const routes = peerRoutes;
