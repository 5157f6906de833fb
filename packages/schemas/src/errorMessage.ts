/** What went wrong, as text: an Error's message, anything else as a string; cut at `max`. */
export function errorMessage(error: unknown, max?: number): string {
  const text = error instanceof Error ? error.message : String(error);
  return max === undefined ? text : text.slice(0, max);
}
