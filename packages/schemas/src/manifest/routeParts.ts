import type { z } from 'zod';
import type { RouteResponse } from './defineRoute';

/** A 200 answer with its schema (shared by the client and the operator routes). */
export const ok = <S extends z.ZodType>(schema: S, description = 'OK') =>
  ({ 200: { description, schema } }) as const satisfies Record<number, RouteResponse>;

export const KEEPER = ['keeper'] as const;
