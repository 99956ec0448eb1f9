/** A signature-request test bench: a store, an app, an account with a token, and a clock tests can move. */
import type { FastifyInstance } from 'fastify';
import { storeDocumentObjects } from '../../src/adapters/store/document.repository.js';
import type { Config } from '../../src/config.js';
import type { WebAssets } from '../../src/http/routes/web/web.route.js';
import { createAccount } from '../../src/app/accounts/create-account.js';
import { createApiToken } from '../../src/app/accounts/manage-api-tokens.js';
import type { AppDeps } from '../../src/app/shared/deps.js';
import { randomHash } from '../support/anchors.js';
import { createIdentityKey } from '../../src/app/identity/create-identity-key.js';
import { localSigner, PLATFORM_KEY_CACHE_MS } from '../../src/app/identity/sign-hash.js';
import type { PlatformSigner } from '../../src/app/signature-requests/platform-signer.port.js';
import { signerSecretOf } from '../../src/app/signature-requests/signer-secrets.js';
import type { Clock } from '../../src/app/shared/clock.port.js';
import type { Store } from '../../src/app/shared/store.port.js';
import { realRandom, recordingJobs, TEST_SECRET_KEY, testApp, testClock, testDeps } from '../support/fixtures.js';
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

/** The platform key of the tests: an identity key in the store, signing in process. */
export const IDENTITY_PUBLIC_URL = 'https://id.proofseal.example.com';

export async function platformSignerIn(store: Store, clock: Clock): Promise<PlatformSigner> {
  const identityDeps = {
    store,
    clock,
    random: realRandom,
    identity: { secretKey: TEST_SECRET_KEY, publicUrl: IDENTITY_PUBLIC_URL },
  };
  await createIdentityKey(identityDeps, { name: 'platform', identity: { commonName: 'proofseal platform' } });
  // As src/runtime.ts builds it: signing in process, inside the signing transaction.
  const signer = localSigner(identityDeps, { keyCacheMs: PLATFORM_KEY_CACHE_MS });
  return { signer, inProcess: signer.on, issuerDomain: 'example.com' };
}

/** A bench; `appOptions` adds the pages' bundle or another configuration to its app. */
export async function openBench(
  kind: StoreKind,
  extra: Partial<AppDeps> = {},
  appOptions: { webAssets?: WebAssets; config?: Config } = {},
): Promise<Bench> {
  const s = await kind.open();
  const clock = testClock(Date.now());
  const jobs = recordingJobs();
  const store = s.withJobs(() => jobs);
  const platformSigner = await platformSignerIn(store, clock);
  // The files to sign in the bench's own store, as src/runtime.ts wires them.
  const documents = { objects: storeDocumentObjects(s.db), retentionMs: 90 * 86_400_000 };
  const deps = testDeps(store, { clock, jobs, platformSigner, documents, ...extra });
  const app = await testApp(store, { deps, ...appOptions });
  const { auth, accountId } = await createOwner(deps);
  return {
    s,
    app,
    deps,
    clock,
    jobs,
    auth,
    accountId,
    async close() {
      await app.close();
      await s.destroy();
    },
  };
}

/** The requests' owner (owner@example.com) and its API token as an Authorization header. */
export async function createOwner(deps: AppDeps): Promise<{ auth: { authorization: string }; accountId: string }> {
  const account = await createAccount(deps, { email: 'owner@example.com', password: 'correct horse battery' });
  const { token } = await createApiToken(deps, { accountId: account.id });
  return { auth: { authorization: `Bearer ${token}` }, accountId: account.id };
}

export const signer = (n: number) => ({ commonName: `Signer ${n}`, email: `signer${n}@example.com` });
/** A signer who signs with a one-time code sent by SMS (a French mobile number). */
export const otpSigner = {
  commonName: 'Olga',
  email: 'olga@example.com',
  countryCallingCode: '33',
  phone: '612345678',
  requiresOTP: true,
};

export function requestBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Contract', hashToSign: randomHash(), authorizedSignees: [signer(1), signer(2)], ...extra };
}

/** Creates a request over HTTP and returns its id and its signers' signeeIds (derived as the e-mail issue will). */
export async function createRequest(
  b: Bench,
  body: Record<string, unknown> = requestBody(),
): Promise<{ id: string; signeeIds: string[]; body: Record<string, unknown> }> {
  const res = await b.app.inject({ method: 'POST', url: '/v1/signatureRequest', headers: b.auth, payload: body });
  if (res.statusCode !== 200) throw new Error(`create: ${res.statusCode} ${res.body}`);
  const id = res.json().id as string;
  const stored = await b.deps.store.signatureRequests.findById(id);
  return { id, signeeIds: stored!.signers.map((s) => signerSecretOf(b.deps, s)), body };
}

/** `GET /v1/signatureRequest/{id}` as the owner: the request as the API shows it. */
export async function getRequest(b: Bench, id: string) {
  return (await b.app.inject({ method: 'GET', url: `/v1/signatureRequest/${id}`, headers: b.auth })).json();
}

export async function delegate(b: Bench, id: string, signeeId: string, otp?: string) {
  return b.app.inject({
    method: 'POST',
    url: `/v1/signatureRequest/${id}/delegate`,
    payload: { signeeId, ...(otp !== undefined && { otp }) },
  });
}
