import { EngineError } from './errors';

/**
 * An opaque page cursor over rows whose ids only grow (`<prefix>:<id>`, base64url): a page
 * continues after the last row it showed, so pages never repeat or skip a row. Decoding
 * anything this API did not hand out is a 400 naming `query.cursor`.
 */
export function idCursor(prefix: string) {
  const pattern = new RegExp(`^${prefix}:([1-9][0-9]{0,18})$`);
  const encode = (id: bigint): string => Buffer.from(`${prefix}:${id}`).toString('base64url');
  return {
    /** The cursor of a page that continues after the row `id` (rows older than it follow). */
    encode,
    decode: (cursor: string): bigint => {
      const match = pattern.exec(Buffer.from(cursor, 'base64url').toString());
      if (!match?.[1]) {
        throw new EngineError(
          'BAD_REQUEST',
          'query.cursor: not a cursor from this API',
          'query.cursor',
        );
      }
      return BigInt(match[1]);
    },
    /**
     * The page out of `limit + 1` rows read newest first (the extra row only says that another
     * page follows), with the cursor after its last row, null on the last page.
     */
    page<Row extends { readonly id: bigint }>(rows: readonly Row[], limit: number) {
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return {
        rows: rows.slice(0, limit),
        nextCursor: last ? encode(last.id) : null,
      };
    },
  };
}
