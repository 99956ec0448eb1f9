import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection, in percent. By
 * default it grows by a factor of up to 4 while the process allocates fast, so under an ingest load a
 * service's heap swelled to 2-4× its live data (a PostgreSQL API process from ~45 MB of live objects to
 * 200 MB of RSS, the default run to 420 MB) and kept it once the load was over. At 50 % a full collection
 * runs sooner; the API process stayed near 130-150 MB with about the same CPU per anchor (the figures
 * are in docs/performance-log-archive.md, "Footprint"). Read at every collection, so it takes effect when set here.
 */
const HEAP_GROWING_PERCENT = 50;

/** Applies the service's heap settings to this process (`proofseal start`, every role). */
export function tuneServiceHeap(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
