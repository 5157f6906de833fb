import type { z } from 'zod';
import type { RouteResponse } from './defineRoute';
import { PlanDocument } from '../planDocuments';

/** A 200 answer with its schema (shared by the client and the operator routes). */
export const ok = <S extends z.ZodType>(schema: S, description = 'OK') =>
  ({ 200: { description, schema } }) as const satisfies Record<number, RouteResponse>;

export const KEEPER = ['keeper'] as const;

/**
 * 200 plus 304: the document comes from the discovery snapshot with an `ETag`; a request whose
 * `If-None-Match` carries it gets 304 and no body.
 */
export const cachedOk = <S extends z.ZodType>(schema: S, description = 'OK (with ETag)') =>
  ({
    200: { description, schema },
    304: { description: 'Not modified: If-None-Match matched the ETag of the current snapshot.' },
  }) as const satisfies Record<number, RouteResponse>;

export const plan = {
  200: { description: 'A prepared plan, or a blocked plan with blockers[].', schema: PlanDocument },
} as const satisfies Record<number, RouteResponse>;

export const OWNER = ['owner'] as const;
export const OWNER_AGENT = ['owner', 'agent'] as const;
export const OWNER_KEEPER = ['owner', 'keeper'] as const;
