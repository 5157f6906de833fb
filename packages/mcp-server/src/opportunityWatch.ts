import type { OperationCaller } from './tools/callTool';

interface OpportunityApy {
  readonly opportunityId?: unknown;
  readonly grossApyBps?: unknown;
}

/** The APYs of an opportunity list: what an `apy.updated` event changes. */
function apyFingerprint(body: unknown): string {
  const list = (body as { opportunities?: OpportunityApy[] } | null)?.opportunities ?? [];
  return list.map((item) => `${String(item.opportunityId)}=${String(item.grossApyBps)}`).join(',');
}

export interface OpportunityWatchOptions {
  readonly call: OperationCaller;
  readonly intervalMs: number;
  /** Called when an APY changed (another value, or known ↔ unknown) since the last read. */
  readonly onChange: () => Promise<void>;
}

/**
 * Watches the opportunity list while a client is subscribed to it: a client of the public API
 * gets no `apy.updated` event, so the list is read through the API every `intervalMs` and a
 * change of any APY (or of the list's ids) since the last good read notifies. A failed read is
 * skipped (the next one compares with the last good one). packages/mcp/README.md states this.
 */
export class OpportunityWatch {
  private timer: NodeJS.Timeout | undefined;
  private last: string | undefined;
  private reading = false;

  constructor(private readonly options: OpportunityWatchOptions) {}

  get active(): boolean {
    return this.timer !== undefined;
  }

  async start(): Promise<void> {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.options.intervalMs);
    this.timer.unref();
    this.last = await this.read();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.last = undefined;
  }

  private async read(): Promise<string | undefined> {
    try {
      return apyFingerprint(await this.options.call('listOpportunities', {}));
    } catch {
      return undefined;
    }
  }

  private async poll(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const next = await this.read();
      if (next === undefined || !this.timer) return;
      const changed = this.last !== undefined && next !== this.last;
      this.last = next;
      if (changed) await this.options.onChange();
    } finally {
      this.reading = false;
    }
  }
}
