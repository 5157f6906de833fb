import type { z } from 'zod';
import type {
  ClientOperationId as OperationId,
  ClientRoutes as Routes,
  RouteDefinition,
} from '@yieldrouter/schemas';
import type { RequestControls } from './http/HttpRequest';
import type { YieldRouterResources } from './resources/resourceTypes';

/** The empty object type: what a route without a given input contributes. */
type NoFields = Record<never, never>;

type Simplify<T> = { [K in keyof T]: T[K] } & NoFields;

/** `{ key: input }`, optional when every field of the input is optional, absent when none. */
type RequestPart<Key extends string, Schema> = [Schema] extends [z.ZodType]
  ? NoFields extends z.input<Schema>
    ? { readonly [P in Key]?: z.input<Schema> }
    : { readonly [P in Key]: z.input<Schema> }
  : { readonly [P in Key]?: never };

type IdempotencyPart<R extends RouteDefinition> =
  R['request']['headers'] extends readonly (infer H)[]
    ? 'Idempotency-Key' extends H
      ? {
          /** Reused on every retry; generated (crypto.randomUUID) when not given. */
          readonly idempotencyKey?: string;
        }
      : NoFields
    : NoFields;

type RouteOf<Id extends OperationId> = Routes[Id];

type RequestSchema<
  R extends RouteDefinition,
  Key extends 'params' | 'query' | 'body',
> = R['request'] extends { readonly [P in Key]?: infer Schema } ? Schema : undefined;

/**
 * What an operation takes: `params`, `query` and `body` typed from the route's zod request
 * schemas (their input side), plus per-call controls.
 *
 * @example
 * const parameters: OperationParameters<'getSolanaWalletBalance'> = { query: { address } };
 */
export type OperationParameters<Id extends OperationId> = Simplify<
  RequestPart<'params', RequestSchema<RouteOf<Id>, 'params'>> &
    RequestPart<'query', RequestSchema<RouteOf<Id>, 'query'>> &
    RequestPart<'body', RequestSchema<RouteOf<Id>, 'body'>> &
    IdempotencyPart<RouteOf<Id>> &
    RequestControls
>;

type SuccessSchema<R extends RouteDefinition> = {
  [Status in keyof R['responses']]: R['responses'][Status] extends {
    readonly schema: infer Schema extends z.ZodType;
  }
    ? Schema
    : never;
}[keyof R['responses']];

/**
 * What an operation resolves to: the output of the route's 2xx response schema.
 *
 * @example
 * const status: OperationResult<'getStatus'> = await client.getStatus();
 */
export type OperationResult<Id extends OperationId> = z.output<SuccessSchema<RouteOf<Id>>>;

/** One client method; its argument is optional when the route needs no input. */
export type OperationMethod<Id extends OperationId> =
  NoFields extends OperationParameters<Id>
    ? (parameters?: OperationParameters<Id>) => Promise<OperationResult<Id>>
    : (parameters: OperationParameters<Id>) => Promise<OperationResult<Id>>;

/**
 * The client: one method per manifest operation, named by its operationId (kept for
 * compatibility), and the same operations by resource (`client.opportunities.list()`).
 */
export type YieldRouterClient = {
  readonly [Id in OperationId]: OperationMethod<Id>;
} & YieldRouterResources;

/** The untyped shape every operation's parameters share at run time. */
export interface RawParameters extends RequestControls {
  readonly params?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly idempotencyKey?: string;
}
