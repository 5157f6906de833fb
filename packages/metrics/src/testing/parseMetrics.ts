// Go's ParseFloat (Prometheus) reads NaN and Inf in any letter case; prom-client writes `Nan`.
/** One sample of a Prometheus text exposition. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
const SAMPLE = new RegExp(
  `^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)?,?\\})? (-?(?:\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?|[Ii][Nn][Ff])|\\+[Ii][Nn][Ff]|[Nn][Aa][Nn])(?: -?\\d+)?$`,
);
const COMMENT = new RegExp(
  `^# (?:HELP ${NAME} .*|TYPE ${NAME} (?:counter|gauge|histogram|summary|untyped))$`,
);
const PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/g;

/**
 * A strict reader of the Prometheus text format (0.0.4): every line must be a HELP or TYPE
 * comment or a well-formed sample, every sample's family must have been TYPEd before it, and a
 * family is TYPEd once. Throws naming the first bad line.
 */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  const typed = new Map<string, string>();
  for (const [index, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const fail = (why: string) => new Error(`line ${index + 1}: ${why}: ${line}`);
    if (line.startsWith('#')) {
      if (!COMMENT.test(line)) throw fail('not a HELP or TYPE line');
      const [, kind, name, type] = line.split(' ');
      if (kind === 'TYPE') {
        if (typed.has(name ?? '')) throw fail('family typed twice');
        typed.set(name ?? '', type ?? '');
      }
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw fail('not a sample');
    const name = match[1] ?? '';
    const typedFamily = [...typed.keys()].some(
      (base) =>
        name === base ||
        (name.startsWith(base) &&
          /^_(bucket|sum|count|total|created)$/.test(name.slice(base.length))),
    );
    if (!typedFamily) throw fail('sample of an untyped family');
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(PAIR)) labels[pair[1] ?? ''] = pair[2] ?? '';
    const raw = match[3] ?? '';
    samples.push({
      name,
      labels,
      value: /inf$/i.test(raw)
        ? raw.startsWith('-')
          ? -Infinity
          : Infinity
        : /nan/i.test(raw)
          ? NaN
          : Number(raw),
    });
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
export function sampleValue(
  samples: readonly Sample[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const found = samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1)
    throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]?.value;
}
