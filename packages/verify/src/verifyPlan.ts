import { legBytesDigest } from './legBytesDigest';
import { expectationsOf, LegCheck } from './legCheck';
import type {
  LegVerdict,
  PlanVerdict,
  VerifiablePlan,
  VerifyGap,
  VerifyPlanOptions,
  VerifyReason,
} from './verdict';
import { normalizeEvmAddress, verifyEvmLeg } from './verifyEvmLeg';
import { normalizeSolanaAddress, verifySolanaLeg } from './verifySolanaLeg';
import { normalizeSuiAddressOrKeep, verifySuiLeg } from './verifySuiLeg';

const MICROS = /^(0|[1-9][0-9]*)$/;

const LEG_VERIFIERS = {
  'evm-transaction-request': { verify: verifyEvmLeg, normalize: normalizeEvmAddress },
  'solana-v0-base64': { verify: verifySolanaLeg, normalize: normalizeSolanaAddress },
  'sui-transaction-json': { verify: verifySuiLeg, normalize: normalizeSuiAddressOrKeep },
  'sui-transaction-bcs-base64': { verify: verifySuiLeg, normalize: normalizeSuiAddressOrKeep },
} as const;

/**
 * Decodes every unsigned leg of a plan (EVM, Solana, Sui) without a network and checks it
 * against the plan document and the owner's expectations: each leg is sent by the owner and
 * carries the plan's tag; every destination is the owner, a listed venue, a payee or a
 * disclosed fee recipient; amounts are the legs' and fee transfers are the plan's fee lines; no
 * approval exceeds the leg's amount or goes to a spender that is not a listed venue.
 *
 * Run it before signing; nothing it reads comes from the server but the plan itself.
 *
 * @example
 * import { verifyPlan } from '@yieldrouter/sdk/verify';
 * const verdict = verifyPlan(plan, { owner, venues: [vault, usdc] });
 * if (verdict.status !== 'verified') console.error(verdict.reasons);
 */
export function verifyPlan(plan: VerifiablePlan, options: VerifyPlanOptions): PlanVerdict {
  const reasons: VerifyReason[] = [];
  const gaps: VerifyGap[] = [];
  const legs: LegVerdict[] = [];
  const planId = plan.planId;
  if (plan.status !== 'prepared' || !planId || !plan.legs || plan.legs.length === 0) {
    reasons.push({
      code: 'not_prepared',
      message: 'only a prepared plan with legs can be verified',
    });
    return { status: 'rejected', planId, reasons, gaps, legs };
  }
  const feeLines = (plan.feeLines ?? []).filter((line) => MICROS.test(line.amountMicros));
  const feeAmounts = feeLines.map((line) => BigInt(line.amountMicros));
  if (plan.feeLines && plan.feeMicros !== undefined) {
    const total = feeAmounts.reduce((sum, amount) => sum + amount, 0n);
    if (feeLines.length !== plan.feeLines.length || String(total) !== plan.feeMicros) {
      reasons.push({
        code: 'fee_mismatch',
        message: `the fee lines add up to ${total}, the plan states feeMicros ${plan.feeMicros}`,
      });
    }
  }
  // The skim is disclosed apart from the fee lines (it is not the plan's fee on the amount).
  const skimAmounts =
    plan.skim && MICROS.test(plan.skim.skimMicros) ? [BigInt(plan.skim.skimMicros)] : [];
  for (const leg of plan.legs) {
    const verifier = LEG_VERIFIERS[leg.encoding as keyof typeof LEG_VERIFIERS];
    if (!verifier) {
      reasons.push({
        code: 'undecodable',
        leg: leg.index,
        message: `unknown encoding ${leg.encoding}`,
      });
      continue;
    }
    const expect = expectationsOf(options, verifier.normalize, [...feeAmounts, ...skimAmounts]);
    if (plan.owner !== undefined && verifier.normalize(plan.owner) !== expect.owner) {
      reasons.push({
        code: 'owner_mismatch',
        leg: leg.index,
        message: `the plan names owner ${plan.owner}, not ${options.owner}`,
      });
    }
    const check = new LegCheck(leg, planId, expect);
    if (check.amount < 0n)
      check.fail('amount_mismatch', `amountMicros ${leg.amountMicros} is not micros`);
    verifier.verify(check);
    reasons.push(...check.reasons);
    gaps.push(...check.gaps);
    legs.push({ index: leg.index, encoding: leg.encoding, effects: check.effects });
  }
  // The simulated outcome speaks of the bytes it ran: a leg changed since is not covered by it.
  for (const simulated of plan.simulation?.legs ?? []) {
    const leg = plan.legs.find((entry) => entry.index === simulated.index);
    if (leg && legBytesDigest(leg) !== simulated.bytesDigest) {
      reasons.push({
        code: 'bytes_digest_mismatch',
        leg: leg.index,
        message: `leg ${leg.index}'s bytes are not those the plan's simulation ran (${simulated.bytesDigest})`,
      });
    }
    // Not simulated yet: not a pass for it (its outcome is unknown until the leg before settles).
    if (simulated.outcome === 'deferred') {
      const waits =
        simulated.waitsFor === undefined ? 'the leg before it' : `leg ${simulated.waitsFor}`;
      gaps.push({
        code: 'simulation_deferred',
        leg: simulated.index,
        message: `leg ${simulated.index} is not simulated yet: it runs on what ${waits} leaves and is simulated once that leg settles; fetch the plan again then, before signing it`,
      });
    }
  }
  for (const finding of plan.simulation?.findings ?? []) {
    reasons.push({
      code: 'simulation_finding',
      leg: finding.legIndex,
      message: `the plan's simulation: ${finding.code}: ${finding.message}`,
    });
  }
  const status = reasons.length > 0 ? 'rejected' : gaps.length > 0 ? 'incomplete' : 'verified';
  return { status, planId, reasons, gaps, legs };
}
