import { opportunityRoutes } from '@yieldrouter/schemas';

export const routes = opportunityRoutes;
