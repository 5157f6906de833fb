import { walletRoutes } from '@yieldrouter/schemas';

export const routes = walletRoutes;
