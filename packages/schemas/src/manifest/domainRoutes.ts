// Each domain's routes on their own, so a consumer (the SDK's lazily loaded response schemas)
// can take one domain without the others.
export { autoPayRoutes } from './autoPayRoutes';
export { autopilotRoutes } from './autopilotRoutes';
export { bridgeRoutes } from './bridgeRoutes';
export { cageRoutes } from './cageRoutes';
export { chainRoutes } from './chainRoutes';
export { discoveryRoutes } from './discoveryRoutes';
export { guardrailRoutes } from './guardrailRoutes';
export { metaRoutes } from './metaRoutes';
export { opportunityRoutes } from './opportunityRoutes';
export { peerRoutes } from './peerRoutes';
export { planRoutes } from './planRoutes';
export { swapRoutes } from './swapRoutes';
export { walletRoutes } from './walletRoutes';
export { webhookRoutes } from './webhookRoutes';
