/** Waiting in tests for something observable, never for a fixed time. */

/**
 * Polls `check` every `everyMs` until it holds; past `timeoutMs` it fails naming what was awaited.
 * @throws Error `timed out after … waiting for <what>`
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
  everyMs = 100,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Lines logged as JSON (pino) kept in memory, for tests that wait on a log event. */
export function capturedLog(): { lines: Record<string, unknown>[]; stream: { write(line: string): void } } {
  const lines: Record<string, unknown>[] = [];
  return { lines, stream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) } };
}
