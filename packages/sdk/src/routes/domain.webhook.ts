import { webhookRoutes } from '@yieldrouter/schemas';

export const routes = webhookRoutes;
