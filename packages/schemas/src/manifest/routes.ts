// `z` in scope here lets the emitted declaration of `clientRoutes` name zod's types as `z.*`,
// so the SDK's bundled types import nothing but `{ z }` from zod (see the SDK's package test).
// eslint-disable-next-line @typescript-eslint/no-unused-vars
import type { z } from 'zod';
import { autopilotRoutes } from './autopilotRoutes';
import { cageRoutes } from './cageRoutes';
import { chainRoutes } from './chainRoutes';
import { discoveryRoutes } from './discoveryRoutes';
import { guardrailRoutes } from './guardrailRoutes';
import { metaRoutes } from './metaRoutes';
import { movementRoutes } from './movementRoutes';
import { opportunityRoutes } from './opportunityRoutes';
import { planRoutes } from './planRoutes';
import { walletRoutes } from './walletRoutes';
import { webhookRoutes } from './webhookRoutes';

/**
 * Every route of the API, declared once. The Express router, the OpenAPI document,
 * GET /svc/routes and the SDK are all derived from this object.
 */
/** Every route an agent or owner calls: the SDK is built from these. */
export const clientRoutes = {
  ...metaRoutes,
  ...discoveryRoutes,
  ...opportunityRoutes,
  ...planRoutes,
  ...walletRoutes,
  ...guardrailRoutes,
  ...chainRoutes,
  ...movementRoutes,
  ...autopilotRoutes(),
  ...webhookRoutes,
  ...cageRoutes,
} as const;

export type ClientRoutes = typeof clientRoutes;
export type ClientOperationId = keyof ClientRoutes;
