/**
 * The slice of `fetch` the SDK uses, typed structurally so that the platform fetch (Node,
 * browsers, Deno, Bun) and wrappers around it fit without DOM or Node type libraries.
 */
export interface FetchRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface FetchResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** A `fetch` implementation, e.g. `globalThis.fetch` or a test double. */
export type FetchLike = (url: string, init: FetchRequestInit) => Promise<FetchResponseLike>;

/** What one HTTP exchange produced: status, headers and the whole body as text. */
export interface ReceivedResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly text: string;
}
