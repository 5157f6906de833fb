// `z` in scope lets the emitted declaration of `clientRouteDomains` name zod's types as `z.*`.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
import type { z } from 'zod';
import { autoPayRoutes } from './autoPayRoutes';
import { autopilotRoutes } from './autopilotRoutes';
import { bridgeRoutes } from './bridgeRoutes';
import { cageRoutes } from './cageRoutes';
import { chainRoutes } from './chainRoutes';
import { discoveryRoutes } from './discoveryRoutes';
import { guardrailRoutes } from './guardrailRoutes';
import { metaRoutes } from './metaRoutes';
import { opportunityRoutes } from './opportunityRoutes';
import { peerRoutes } from './peerRoutes';
import { planRoutes } from './planRoutes';
import { swapRoutes } from './swapRoutes';
import { walletRoutes } from './walletRoutes';
import { webhookRoutes } from './webhookRoutes';

/**
 * The client routes by domain, one manifest file each, in the order `clientRoutes` merges them.
 * The SDK loads a domain's response schemas only when one of its routes is first called.
 */
export const clientRouteDomains = {
  meta: metaRoutes,
  discovery: discoveryRoutes,
  opportunity: opportunityRoutes,
  plan: planRoutes,
  wallet: walletRoutes,
  guardrail: guardrailRoutes,
  autoPay: autoPayRoutes,
  chain: chainRoutes,
  swap: swapRoutes,
  bridge: bridgeRoutes,
  autopilot: autopilotRoutes(),
  webhook: webhookRoutes,
  cage: cageRoutes,
  peer: peerRoutes,
} as const;

export type ClientRouteDomain = keyof typeof clientRouteDomains;
