#!/usr/bin/env node
import { run, exitCodeOf } from '../dist/main.js';

run(process.argv.slice(2)).catch((err) => {
  console.error(err && err.name && err.name !== 'Error' && exitCodeOf(err) !== 1 ? `proofseal: ${err.message}` : err);
  process.exit(exitCodeOf(err));
});
