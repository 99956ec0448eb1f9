import type { AppDeps } from '../app/deps.js';
import { deliverCallbackJob } from './deliver-callback.job.js';
import type { JobDefinition } from './job-definition.js';
import { purgeTokensJob } from './purge-tokens.job.js';

/** Every job this service runs; a worker works them all, an api process only declares them to send. */
export function jobDefinitions(deps: AppDeps): JobDefinition[] {
  return [purgeTokensJob(deps), deliverCallbackJob(deps)];
}
