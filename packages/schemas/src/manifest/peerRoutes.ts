import { peerDocumentRoutes } from './peerDocumentRoutes';
import { peerWalletRoutes } from './peerWalletRoutes';

/**
 * The routes peer (v1) clients call that serve the mission (issue 41): views of and aliases
 * over existing use cases, each through the manifest like every other route.
 */
export const peerRoutes = { ...peerWalletRoutes, ...peerDocumentRoutes } as const;
