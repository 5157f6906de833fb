import type { FuzzRequest } from './fuzzRequest';

/** One class of failure on one operation: a symptom, the input shapes that met it, its smallest example. */
export interface Finding {
  readonly operation: string;
  readonly symptom: string;
  /** What was odd about the smallest request that met it. */
  readonly shape: string;
  readonly detail: string;
  readonly request: FuzzRequest;
  count: number;
  /** Every input shape that met it (a request's odd parts joined), with counts. */
  readonly shapes: Map<string, number>;
}

export type FindingInput = Omit<Finding, 'count' | 'shapes'>;

const MAX_SHOWN = 240;

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const shown = (text: string) =>
  text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…(${text.length} characters)` : text;

/** The request as a curl line; API keys appear as $OWNER_KEY-style variables, never as values. */
export function toCurl(request: FuzzRequest): string {
  const parts = ['curl -sS', `-X ${request.method}`, shellQuote(`$BASE${shown(request.target)}`)];
  for (const [name, value] of Object.entries(request.headers)) {
    const text =
      name === 'X-API-Key' && request.identity !== 'unknown key'
        ? `$${request.identity.toUpperCase()}_KEY`
        : shown(JSON.stringify(value).slice(1, -1));
    parts.push(`-H ${shellQuote(`${name}: ${text}`)}`);
  }
  if (request.body) {
    const body = request.body.toString('utf8');
    const printable = JSON.stringify(body).slice(1, -1);
    parts.push(`--data-binary ${shellQuote(shown(printable))}`);
  }
  return parts.join(' ');
}

/** Smaller is a better reproducer: fewer odd parts first, then fewer bytes. */
const size = (request: FuzzRequest) =>
  request.shapes.length * 1e9 + request.target.length + (request.body?.length ?? 0);

/** Findings grouped by operation and symptom, keeping the smallest request of each. */
export class FindingLog {
  private readonly byClass = new Map<string, Finding>();

  add(finding: FindingInput): void {
    const key = `${finding.operation}\u0000${finding.symptom}`;
    const known = this.byClass.get(key);
    if (!known) {
      this.byClass.set(key, { ...finding, count: 1, shapes: new Map([[finding.shape, 1]]) });
      return;
    }
    known.count += 1;
    known.shapes.set(finding.shape, (known.shapes.get(finding.shape) ?? 0) + 1);
    if (size(finding.request) < size(known.request)) {
      this.byClass.set(key, { ...finding, count: known.count, shapes: known.shapes });
    }
  }

  list(operation?: string): Finding[] {
    return [...this.byClass.values()].filter(
      (f) => operation === undefined || f.operation === operation,
    );
  }
}

/** A failure message: every class with its smallest reproducer, and how to run it again. */
export function describeFindings(findings: readonly Finding[], rerun: string): string {
  const lines = findings.map((f) => {
    const others = [...f.shapes.keys()].filter((shape) => shape !== f.shape).slice(0, 4);
    return (
      `- ${f.symptom} (×${f.count}) ← ${f.shape} (as ${f.request.identity})\n` +
      (others.length > 0 ? `    also: ${others.map((shape) => shown(shape)).join(' | ')}\n` : '') +
      `    ${shown(f.detail.replace(/\s+/g, ' '))}\n    ${toCurl(f.request)}`
    );
  });
  return `${findings.length} failure class(es):\n${lines.join('\n')}\n${rerun}`;
}
