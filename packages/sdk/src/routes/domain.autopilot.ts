import { autopilotRoutes } from '@yieldrouter/schemas';

export const routes = autopilotRoutes();
