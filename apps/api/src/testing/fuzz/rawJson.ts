import { randomBytes } from 'node:crypto';

/**
 * JSON text spliced verbatim into a serialized value: what JSON.stringify cannot produce
 * (`1e400`, `-0`, duplicate keys) or would overflow its stack on (10 000 levels of nesting).
 */
export class RawJson {
  constructor(
    readonly text: string,
    /** Short description for reports (the text itself may be 60 kB). */
    readonly label: string,
  ) {}

  toString(): string {
    return this.label;
  }
}

const MARK = `rawjson_${randomBytes(6).toString('hex')}_`;

/** JSON text of `value`, with every RawJson inside it spliced in as its text. */
export function toJsonText(value: unknown): string {
  const raws: RawJson[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (!(item instanceof RawJson)) return item;
    raws.push(item);
    return `${MARK}${raws.length - 1}`;
  });
  if (text === undefined) return '';
  if (raws.length === 0) return text;
  return text.replace(new RegExp(`"${MARK}(\\d+)"`, 'g'), (_match, index: string) => {
    const raw = raws[Number(index)];
    if (!raw) throw new Error(`toJsonText: no raw value ${index}`);
    return raw.text;
  });
}

/** `depth` levels of arrays (or objects) around `leaf`, as JSON text. */
export function deeplyNested(depth: number, kind: 'array' | 'object', leaf = '1'): RawJson {
  const text =
    kind === 'array'
      ? `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
  return new RawJson(text, `${depth} levels of nested ${kind}s`);
}
