-- 0071: the bytes digest of a stored EVM leg over its request's canonical JSON (NOTES.md).
-- Each simulated leg whose stored payload is an `evm-transaction-request` gets its `bytesDigest`
-- recomputed as legBytesDigest (packages/verify) does: sha256 of
-- `evm-transaction-request\n` and the request's members sorted by key, no whitespace. A request
-- whose members are not all strings and numbers (none is) is left as it was. Run again, it
-- writes the same digests.
UPDATE "plan_simulations" AS s
SET "document" = jsonb_set(s."document", '{legs}', COALESCE((
  SELECT jsonb_agg(
           CASE WHEN l."payload"->>'encoding' = 'evm-transaction-request'
                 AND jsonb_typeof(l."payload"->'transaction') = 'object'
                 AND NOT EXISTS (
                   SELECT 1 FROM jsonb_each(l."payload"->'transaction') AS m(k, v)
                   WHERE jsonb_typeof(m.v) NOT IN ('string', 'number'))
                THEN e.leg || jsonb_build_object('bytesDigest', 'sha256:' || encode(sha256(convert_to(
                  'evm-transaction-request' || E'\n' || (
                    SELECT '{' || string_agg(to_jsonb(m.k)::text || ':' || m.v::text, ','
                                             ORDER BY m.k COLLATE "C") || '}'
                    FROM jsonb_each(l."payload"->'transaction') AS m(k, v)), 'UTF8')), 'hex'))
                ELSE e.leg END
           ORDER BY e.ord)
  FROM jsonb_array_elements(s."document"->'legs') WITH ORDINALITY AS e(leg, ord)
  LEFT JOIN "plan_legs" AS l
    ON l."plan_id" = s."plan_id" AND l."leg_index" = (e.leg->>'index')::int), '[]'::jsonb))
WHERE s."status" = 'simulated'
  AND jsonb_typeof(s."document"->'legs') = 'array'
  AND EXISTS (SELECT 1 FROM "plan_legs" AS l
              WHERE l."plan_id" = s."plan_id" AND l."payload"->>'encoding' = 'evm-transaction-request');
