// A node:test reporter that writes, for each test file, the time its top-level tests took (one JSON line per
// top-level test: {file, ms}); scripts/run-tests.mjs sums them per file to hold the fast tier to its bound.
export default async function* durations(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (nesting !== 0 || !file || typeof details?.duration_ms !== 'number') continue;
    yield `${JSON.stringify({ file, ms: details.duration_ms })}\n`;
  }
}
