/**
 * What a model needs beyond the manifest's summary, for the tools where that summary does not
 * say when to use the tool or what it returns. Kept short: every word is in the host's budget.
 */
export const TOOL_DESCRIPTION_OVERRIDES: Readonly<Record<string, string>> = {
  listOpportunities:
    'Start here to find where to deposit: opportunities (a protocol on a chain) with APY (now and ' +
    '1/7/30-day means), TVL, caps, depositable and ready flags; filter, sort and page. Pass an ' +
    "opportunity's id to the plan tools.",
  getOpportunityApyHistory:
    'Daily APY points (mean, min, max, samples) of one opportunity: compare stability before ' +
    'choosing. id: svcop… or a bare venue id.',
  getEstimates: 'Projected yield of an amount over a horizon, net of the yield fee.',
  getFees: 'The live fee schedule (bps) every plan applies. Read it; never assume rates.',
  getPosition: "A wallet's position: liquid, staked and pending micros, per chain and venue.",
  getPublicPortfolio: "A wallet's balances and venue positions, readable without a key.",
  getPerformance: "A wallet's realized yield and APY (null when unknown).",
  getPublicActivity: "A wallet's activity, one row per plan leg, newest first; cursor paging.",
  prepareDepositPlan: 'Prepare a deposit of amountMicros into an opportunity for the owner wallet.',
  prepareWithdrawPlan: 'Prepare a withdrawal from an opportunity back to the owner (fee 0).',
  getPlan: 'A stored plan: its legs and each leg state (unsigned, submitted, confirmed, failed).',
  harvest: "Claim a wallet position's accrued yield (permissionless); amounts come from the venue.",
  getAutopilot: "The wallet's autopilot: policy, incumbent opportunity, next tick, last decision.",
  previewAutopilot:
    'What the autopilot would decide with these policy fields replaced: the ranked candidates ' +
    'and the outcome. Moves nothing, stores no policy.',
  decideAutopilot:
    'Decide under the stored policy now: stay or switch, with the reason code. Prepares nothing.',
};
