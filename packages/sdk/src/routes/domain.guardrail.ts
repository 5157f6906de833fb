import { guardrailRoutes } from '@yieldrouter/schemas';

export const routes = guardrailRoutes;
