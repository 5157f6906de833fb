import type * as schemas from '@yieldrouter/schemas';

// Aliases, not re-exports: the schema modules declare a zod value and a type under one name,
// and only the type ships in the SDK's API.

/** One reason a plan is blocked (`code` from the catalog at `GET /api/v1/svc/errors`). */
export type Blocker = schemas.Blocker;
/** Blocker codes of the catalog. */
export type BlockerCode = schemas.BlockerCode;
/** Chains the API knows: `sui`, `solana`, `base`, `arbitrum`. */
export type Chain = schemas.Chain;
/** Error codes of the catalog. */
export type ErrorCode = schemas.ErrorCode;
/** Every operation of the manifest; each is a method of the client. */
export type OperationId = schemas.ClientOperationId;
/**
 * A plan's legs simulated on their chain at prepare (issue 44): each leg's balance changes bound
 * to its unsigned bytes, or `unavailable` with the reason. On every prepared plan as `simulation`.
 */
export type PlanSimulation = schemas.PlanSimulation;
/**
 * An approval a simulated leg sets: the spender's allowance over the holder's tokens after it,
 * with the spender's role (`other`: a spender no leg of the plan calls, a finding).
 */
export type AllowanceChange = schemas.AllowanceChange;
/** A settled leg whose transaction moved USDC otherwise than the simulation (`plan.divergence`). */
export type PlanDivergence = schemas.PlanDivergence;
/** The `data` of a `plan.divergence` webhook event. */
export type PlanDivergenceData = schemas.PlanDivergenceData;
/**
 * The `data` of a `plan.simulated` webhook event: a deferred Solana or Sui leg simulated once
 * the leg before it settled (its outcome, its findings, the plan's new simulation digest).
 */
export type PlanSimulatedData = schemas.PlanSimulatedData;
/** One leg of a plan's simulation (`outcome: 'deferred'`: not run yet, see `waitsFor`). */
export type SimulatedLeg = schemas.SimulatedLeg;
