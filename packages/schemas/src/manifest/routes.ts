// `z` in scope here lets the emitted declaration of `clientRoutes` name zod's types as `z.*`,
// so the SDK's bundled types import nothing but `{ z }` from zod (see the SDK's package test).
// eslint-disable-next-line @typescript-eslint/no-unused-vars
import type { z } from 'zod';
import { clientRouteDomains as domains } from './clientRouteDomains';

/**
 * Every route of the API, declared once. The Express router, the OpenAPI document,
 * GET /svc/routes and the SDK are all derived from this object.
 */
/** Every route an agent or owner calls: the SDK is built from these. */
export const clientRoutes = {
  ...domains.meta,
  ...domains.discovery,
  ...domains.opportunity,
  ...domains.plan,
  ...domains.wallet,
  ...domains.guardrail,
  ...domains.autoPay,
  ...domains.chain,
  ...domains.swap,
  ...domains.bridge,
  ...domains.autopilot,
  ...domains.webhook,
  ...domains.cage,
  ...domains.peer,
} as const;

export type ClientRoutes = typeof clientRoutes;
export type ClientOperationId = keyof ClientRoutes;
