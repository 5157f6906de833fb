import { z } from 'zod';

/**
 * The default toolset: the operations an agent needs to find yield and move a wallet's money
 * through owner-signed plans, with why each is in. Everything else of the catalog is listed
 * only with the full toolset (`SVC_MCP_TOOLSET=full`). At most 20, so a host that caps or
 * degrades large tool lists still shows them all (see toolListSize.test.ts for their tokens).
 */
export const CORE_TOOLS: Readonly<Record<string, string>> = {
  listOpportunities: 'discover and compare: APY, TVL, caps and readiness per opportunity',
  getOpportunityApyHistory: 'compare: daily APY of one opportunity, the 30-day rule',
  getEstimates: 'compare: projected yield of an amount over a horizon, net of the fee',
  getFees: 'the live fee schedule a plan applies (never hard-code rates)',
  getPosition: "read a wallet's position: liquid, staked, pending, per chain",
  getPublicPortfolio: "read a wallet's balances and venues without a key",
  getPerformance: "read a wallet's realized yield and APY",
  getPublicActivity: "read a wallet's activity, one row per plan leg",
  prepareDepositPlan: 'prepare a deposit the owner signs',
  prepareWithdrawPlan: 'prepare a withdrawal the owner signs',
  getPlan: 'follow a plan: its legs and their settlement state',
  prepareEvmSwapPlan: 'prepare a swap on Base or Arbitrum',
  prepareSolanaSwapPlan: 'prepare a swap on Solana',
  prepareSuiSwapPlan: 'prepare a swap on Sui',
  prepareBridgePlan: 'prepare a cross-chain move, with fee and risk disclosure',
  harvest: "claim a position's yield (permissionless)",
  getAutopilot: "read the autopilot's policy, incumbent and last decision",
  previewAutopilot: 'preview an autopilot decision under changed fields (moves nothing)',
  decideAutopilot: 'decide under the stored policy now (moves nothing)',
};

export const TOOLSETS = ['core', 'full'] as const;

/** `core`: the {@link CORE_TOOLS}; `full`: every tool of the catalog. */
export type Toolset = (typeof TOOLSETS)[number];

/** The `SVC_MCP_TOOLSET` setting of the stdio server and the API's /mcp: `core` by default. */
export const ToolsetSetting = z.enum(TOOLSETS).default('core');
