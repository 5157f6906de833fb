import type { TrackedPosition } from '@yieldrouter/ledger';
import type { AutopilotChain } from '@yieldrouter/schemas';
import { checkGuardrails } from '../guardrail/checkGuardrails';
import type { Guardrails } from '../guardrail/checkGuardrails';
import type { AutopilotOpportunity, AutopilotPosition } from './decideAutopilot';

/** The blocker codes of the wallet's guardrails an opportunity fails. */
export type GuardrailCheck = (opportunity: AutopilotOpportunity) => readonly string[];

/**
 * The wallet's guardrails as the rule checks each candidate: a challenger with the move a tick
 * would make (the whole incumbent, `amount: 'all'`, leaving the incumbent on the same chain),
 * against the wallet's staked balances as the books hold them; the incumbent itself (and every
 * candidate of a wallet with nothing staked) with no money moving, so only the rules that do
 * not weigh an amount apply (allowed chains, allowlist, minimum net APY). Exits are never
 * checked (`ownerExitAlways`).
 */
export function guardrailCheck(
  guardrails: Guardrails,
  positions: readonly TrackedPosition[],
  chain: AutopilotChain,
  incumbent: AutopilotPosition | null,
): GuardrailCheck {
  const onChain = positions.filter((position) => position.chain === chain);
  const stakedOnChain = onChain.reduce((sum, position) => sum + position.stakedMicros, 0n);
  return (opportunity) => {
    const moves = incumbent !== null && incumbent.opportunityId !== opportunity.opportunityId;
    const amount = moves ? incumbent.stakedMicros : 0n;
    const stakedIn = onChain
      .filter((position) => position.opportunityId === opportunity.opportunityId)
      .reduce((sum, position) => sum + position.stakedMicros, 0n);
    return checkGuardrails(guardrails, {
      chain,
      opportunityId: opportunity.opportunityId,
      amountMicros: amount,
      stakedInOpportunityMicros: moves ? stakedIn : 0n,
      stakedOnChainMicros: moves ? stakedOnChain : 0n,
      leavingOnChainMicros: amount,
      grossApyBps: opportunity.grossApyBps,
    }).map((blocker) => blocker.code);
  };
}
