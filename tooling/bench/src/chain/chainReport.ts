// What one chain's bench produces: table rows and the footnotes that explain them.
import type { Comparison } from './compare';

export interface ChainReport {
  readonly chain: string;
  /** The bed the reads ran against. */
  readonly bed: string;
  readonly rows: readonly Comparison[];
  /** Extra lines printed under the table (context, parts of a baseline measured alone). */
  readonly notes: readonly string[];
}
