/** A signature-request test bench: a store, an app, an account with a token, and a clock tests can move. */
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../src/app/accounts/create-account.js';
import { createApiToken } from '../../src/app/accounts/manage-api-tokens.js';
import type { AppDeps } from '../../src/app/shared/deps.js';
import { randomHash } from '../support/anchors.js';
import { recordingJobs, testApp, testClock, testDeps } from '../support/fixtures.js';
import type { StoreKind, TestStore } from '../support/stores.js';

export interface Bench {
  readonly s: TestStore;
  readonly app: FastifyInstance;
  readonly deps: AppDeps;
  readonly clock: ReturnType<typeof testClock>;
  readonly jobs: ReturnType<typeof recordingJobs>;
  readonly auth: { authorization: string };
  readonly accountId: string;
  close(): Promise<void>;
}

export async function openBench(kind: StoreKind, extra: Partial<AppDeps> = {}): Promise<Bench> {
  const s = await kind.open();
  const clock = testClock(Date.now());
  const jobs = recordingJobs();
  const store = s.withJobs(() => jobs);
  const deps = testDeps(store, { clock, jobs, ...extra });
  const app = await testApp(store, { deps });
  const account = await createAccount(deps, { email: 'owner@example.com', password: 'correct horse battery' });
  const { token } = await createApiToken(deps, { accountId: account.id });
  return {
    s,
    app,
    deps,
    clock,
    jobs,
    auth: { authorization: `Bearer ${token}` },
    accountId: account.id,
    async close() {
      await app.close();
      await s.destroy();
    },
  };
}

export const signer = (n: number) => ({ commonName: `Signer ${n}`, email: `signer${n}@example.com` });

export function requestBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Contract', hashToSign: randomHash(), authorizedSignees: [signer(1), signer(2)], ...extra };
}
