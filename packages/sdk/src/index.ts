export { createClient } from './createClient';
export type { ClientOptions, RetryPolicy } from './clientOptions';
export type {
  OperationMethod,
  OperationParameters,
  OperationResult,
  YieldRouterClient,
} from './operationTypes';
export type { RequestControls } from './http/HttpRequest';
export type {
  ResourceControls,
  ResourceMethod,
  YieldRouterResources,
} from './resources/resourceTypes';
export type { FetchLike, FetchRequestInit, FetchResponseLike } from './http/fetchTypes';

export { YieldRouterError } from './errors/YieldRouterError';
export type { YieldRouterErrorCode } from './errors/YieldRouterError';
export {
  AuthenticationError,
  NotFoundError,
  NotImplementedError,
  PermissionError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './errors/httpErrors';
export { ConnectionError } from './errors/ConnectionError';
export { SchemaMismatchError } from './errors/SchemaMismatchError';
export type { SchemaIssue } from './errors/SchemaMismatchError';

export { isBlockedPlan } from './plans/isBlockedPlan';
export type { BlockedPlan } from './plans/isBlockedPlan';

export { parseMicros } from './money/parseMicros';
export { formatMicros } from './money/formatMicros';
export { normalizeOpportunityId } from '@yieldrouter/schemas';

export type {
  AllowanceChange,
  Blocker,
  BlockerCode,
  Chain,
  ErrorCode,
  OperationId,
  PlanDivergence,
  PlanDivergenceData,
  PlanSimulatedData,
  PlanSimulation,
  SimulatedLeg,
} from './schemaTypes';
