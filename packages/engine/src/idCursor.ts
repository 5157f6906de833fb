import { EngineError } from './errors';

/**
 * An opaque page cursor over rows whose ids only grow (`<prefix>:<id>`, base64url): a page
 * continues after the last row it showed, so pages never repeat or skip a row. Decoding
 * anything this API did not hand out is a 400 naming `query.cursor`.
 */
export function idCursor(prefix: string) {
  const pattern = new RegExp(`^${prefix}:([1-9][0-9]{0,18})$`);
  return {
    encode: (id: bigint): string => Buffer.from(`${prefix}:${id}`).toString('base64url'),
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
  };
}
