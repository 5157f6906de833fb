import type {
  ClientOperationId as OperationId,
  ClientRoutes as Routes,
} from '@yieldrouter/schemas';
import type { OperationParameters, OperationResult } from '../operationTypes';
import type { resourceTable } from './resourceTable';

type NoFields = Record<never, never>;

/** One string argument per `{param}` segment of a path, in order. */
type PathStrings<Path extends string> = Path extends `${string}{${string}}${infer Rest}`
  ? [string, ...PathStrings<Rest>]
  : [];

type PathArgs<Id extends OperationId> = PathStrings<Routes[Id]['path']>;

type HasBody<Id extends OperationId> = Routes[Id]['request'] extends { readonly body: unknown }
  ? true
  : false;

type Parameters_<Id extends OperationId> = OperationParameters<Id> & {
  readonly params?: unknown;
  readonly query?: unknown;
  readonly body?: unknown;
};

/** The input argument: the body where the route takes one, else the query. */
type InputOf<Id extends OperationId> =
  HasBody<Id> extends true ? Parameters_<Id>['body'] : Parameters_<Id>['query'];

/** Per-call controls (signal, timeout, retries, headers, idempotencyKey), and a body route's query. */
export type ResourceControls<Id extends OperationId> = Omit<
  OperationParameters<Id>,
  'params' | 'body' | (HasBody<Id> extends true ? never : 'query')
>;

type InputRequired<Id extends OperationId> =
  NoFields extends Pick<
    OperationParameters<Id>,
    Extract<keyof OperationParameters<Id>, 'body' | 'query'>
  >
    ? false
    : true;

/**
 * A namespaced method: the path parameters as strings, then the body (or the query), then the
 * controls; the input is required only when the route requires it.
 *
 * @example
 * const plan: ResourceMethod<'prepareDepositPlan'> = client.plans.deposit;
 */
export type ResourceMethod<Id extends OperationId> =
  InputRequired<Id> extends true
    ? (
        ...args: [...PathArgs<Id>, input: NonNullable<InputOf<Id>>, controls?: ResourceControls<Id>]
      ) => Promise<OperationResult<Id>>
    : (
        ...args: [...PathArgs<Id>, input?: InputOf<Id>, controls?: ResourceControls<Id>]
      ) => Promise<OperationResult<Id>>;

type Table = typeof resourceTable;

/** The client's resource namespaces, as `resourceTable` lays them out. */
export type YieldRouterResources = {
  readonly [Namespace in keyof Table]: {
    readonly [Method in keyof Table[Namespace]]: Table[Namespace][Method] extends readonly [
      infer Id extends OperationId,
      ...unknown[],
    ]
      ? ResourceMethod<Id>
      : never;
  };
};
