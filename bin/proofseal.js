#!/usr/bin/env node
import path from 'node:path';
import { main } from '../dist/main.js';
// The installation's folder (the checkout): where a command run from another folder finds the default run's data.
await main(process.argv.slice(2), path.dirname(import.meta.dirname));
