import { z } from 'zod';

/** `GET /wallets/{address}/audit`: a page of the trail, newest first. */
export const AuditQuery = z.strictObject({
  cursor: z.string().max(256).optional().meta({ description: 'nextCursor of the previous page.' }),
  limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: 'Default 50.' }),
});

export const AuditEventDocument = z.object({
  id: z.string(),
  at: z.string().meta({ description: 'When the call was recorded (ISO 8601).' }),
  operation: z.string().meta({ description: 'The operationId called (routeFunds, withdraw, …).' }),
  method: z.enum(['POST', 'PUT', 'DELETE']),
  path: z.string().meta({ description: 'The route template, e.g. /wallets/{address}/route.' }),
  actor: z.object({
    role: z.enum(['owner', 'agent', 'keeper', 'public']),
    keyId: z.string().nullable().meta({ description: "The API key's id (never the key)." }),
  }),
  requestId: z.string(),
  planId: z.string().nullable(),
  outcome: z.enum(['ok', 'blocked', 'refused']).meta({
    description: 'ok: the change was made; blocked: a blocked plan (HTTP 200); refused: an error.',
  }),
  status: z.number().int().meta({ description: 'The HTTP status answered.' }),
  errorCode: z.string().nullable().meta({ description: 'The error code of a refusal.' }),
});
export type AuditEventDocument = z.infer<typeof AuditEventDocument>;

export const AuditTrailDocument = z.object({
  schemaVersion: z.literal('svc-wallet-audit.v1'),
  wallet: z.string(),
  count: z.number().int(),
  events: z.array(AuditEventDocument),
  nextCursor: z.string().nullable(),
});
export type AuditTrailDocument = z.infer<typeof AuditTrailDocument>;
