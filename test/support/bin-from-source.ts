/**
 * `node --import tsx --import ./test/support/bin-from-source.ts bin/proofseal.js …`: the binary as users run
 * it (the shim, then `main`), with the shim's `../dist/main.js` served from src/main.ts, so the tests that
 * spawn the service go through bin/proofseal.js without building dist/ first.
 */
import { register } from 'node:module';

register('./bin-from-source.hooks.ts', import.meta.url);
