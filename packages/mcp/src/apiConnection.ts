import type { YieldRouterClient } from '@yieldrouter/sdk';
import { YieldRouterError } from '@yieldrouter/sdk';
import type { ApiState } from '@yieldrouter/mcp-server';
import type { ApiKeyDescription } from './describeApiKey';
import { describeApiKey } from './describeApiKey';

export interface ApiConnectionOptions {
  /** A client without retries: each attempt is one request, the backoff is this class's. */
  readonly client: YieldRouterClient;
  readonly baseUrl: string;
  readonly hasKey: boolean;
  /** The first wait between two attempts (ms); it doubles up to `maxDelayMs`. Default 500. */
  readonly firstDelayMs?: number;
  /** The longest wait between two attempts (ms). */
  readonly maxDelayMs: number;
  /** Called once the key's access is known (the tool list may have changed). */
  readonly onConnected: () => void;
}

/** The message of a tool call while the API is down. */
export const unreachableMessage = (baseUrl: string): string =>
  `the Yield Router API is not reachable at ${baseUrl} yet (SVC_API_URL); this server keeps ` +
  'retrying: start the API, then call the tool again.';

/**
 * The stdio server's view of the API: until the API answers, attempts with a bounded backoff
 * (500 ms doubling to `maxDelayMs`, forever) to learn the key's role and the implemented
 * operations; meanwhile the state is `unreachable` with a provisional access (the owner's tools
 * for a key, the public ones without). A tool call meanwhile tries once at once, so an API that
 * just came up answers without waiting for the next attempt.
 */
export class ApiConnection {
  private description: ApiKeyDescription | undefined;
  /** A refusal that retrying cannot fix (the key was refused): every call reports it. */
  private refusal: string | undefined;
  private attempt: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private delayMs: number;
  private stopped = false;

  constructor(private readonly options: ApiConnectionOptions) {
    this.delayMs = options.firstDelayMs ?? 500;
  }

  /** One attempt now; rejects only when the API answered with a refusal (e.g. 401). */
  connect(): Promise<void> {
    this.attempt ??= describeApiKey(this.options.client, this.options.hasKey)
      .then((description) => {
        this.description = description;
        this.clearTimer();
        this.options.onConnected();
      })
      .catch((error: unknown) => {
        // No answer (status 0) or a server still starting (5xx): try again later. A refused
        // key (describeApiKey's error on 401) cannot be fixed by retrying.
        const transient =
          error instanceof YieldRouterError && (error.status === 0 || error.status >= 500);
        if (!transient) throw error;
      })
      .finally(() => {
        this.attempt = undefined;
      });
    return this.attempt;
  }

  /** Keeps attempting, with the backoff, until the API answers or {@link stop}. */
  retryInBackground(): void {
    if (this.description || this.refusal !== undefined || this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.delayMs = Math.min(this.delayMs * 2, this.options.maxDelayMs);
      this.connect().then(
        () => this.retryInBackground(),
        (error: unknown) => {
          this.refusal = error instanceof Error ? error.message : String(error);
        },
      );
    }, this.delayMs);
  }

  /** The state a tool list or call reads: connected, or why not (trying once more first). */
  async state(): Promise<ApiState> {
    if (!this.description && this.refusal === undefined) {
      await this.connect().catch((error: unknown) => {
        this.refusal = error instanceof Error ? error.message : String(error);
      });
    }
    if (this.description) return { access: this.description };
    return {
      access: { audience: this.options.hasKey ? 'owner' : 'public' },
      unreachable: this.refusal ?? unreachableMessage(this.options.baseUrl),
    };
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
