export { canonicalJson, legBytesDigest } from './legBytesDigest';
export type { JsonValue } from './legBytesDigest';
export { verifyPlan } from './verifyPlan';
export type {
  LegEffect,
  LegVerdict,
  PlanVerdict,
  VerifiableLeg,
  VerifiablePlan,
  VerifyGap,
  VerifyGapCode,
  VerifyPlanOptions,
  VerifyReason,
  VerifyReasonCode,
} from './verdict';
