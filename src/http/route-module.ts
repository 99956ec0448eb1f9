/**
 * What a route module is and what it is given. The route modules (`routes/**\/*.route.ts`) import this
 * module, never app.ts and never one another: app.ts imports them, so the import graph has no circle.
 */
import type { AppDeps } from '../app/shared/deps.js';
import type { TypedFastify } from './validation.js';

/** What a readiness check may tell beyond "it answers": `ready: false` when the part answers but is unfit, and details to show. */
export interface CheckReport {
  readonly ready: boolean;
  readonly details: Record<string, unknown>;
}

/** Each check resolves when its part answers (with a report, when it has more to say) and throws otherwise. */
export type Readiness = Record<string, () => Promise<void | CheckReport>>;

/** The pages' browser bundle as the composition root loaded it (see src/adapters/web/web-assets.ts). */
export interface WebAssets {
  readonly script: string;
  readonly style: string;
  /** Page script URL by manifest entry (`sign-page.js`, `share-page.js`). */
  readonly scripts: ReadonlyMap<string, string>;
  readonly files: ReadonlyMap<string, { readonly body: Buffer; readonly contentType: string }>;
}

/**
 * What route modules are given: the use cases' dependencies, the readiness checks (`/ready`) and the pages'
 * bundle (null: the pages are not served).
 */
export interface RouteDeps extends AppDeps {
  readonly readiness: Readiness;
  readonly webAssets: WebAssets | null;
}

/**
 * The settings routes read: the part of the service's configuration the HTTP layer hands them (app.ts
 * copies these fields out of the whole configuration, so a route cannot come to depend on another one
 * unseen). A route that needs one more setting adds it here.
 */
export interface RouteConfig {
  /** PUBLIC_URL: the service's base URL, for the links answers carry. */
  readonly publicUrl: string;
  /** RATE_LIMIT_PUBLIC_PER_MINUTE: the rate limit of the public routes. */
  readonly rateLimitPublicPerMinute: number;
  /** RATE_LIMIT_AUTH_PER_MINUTE: failed credentials allowed per minute (a password change counts them too). */
  readonly rateLimitAuthPerMinute: number;
  /** DOCUMENT_MAX_BYTES: the largest file to sign an upload accepts. */
  readonly documentMaxBytes: number;
  /** RECEIPT_LEVELS_MB in bytes: the batch tree levels an API process keeps resident for receipts. */
  readonly receiptLevelsBytes: number;
  /** RECEIPT_REDIRECT: answer a settled receipt with a redirect to its static copy. */
  readonly receiptRedirect: boolean;
  /** VERIFY_EXPLORER_URL: the block explorer the verification page may ask (its origin joins connect-src). */
  readonly verifyExplorerUrl?: string | undefined;
  /** BITCOIN_NETWORK: the network the pages name. */
  readonly bitcoinNetwork: string;
}

/** The {@link RouteConfig} fields of a larger configuration, and nothing else. */
export function routeConfigOf(config: RouteConfig): RouteConfig {
  return {
    publicUrl: config.publicUrl,
    rateLimitPublicPerMinute: config.rateLimitPublicPerMinute,
    rateLimitAuthPerMinute: config.rateLimitAuthPerMinute,
    documentMaxBytes: config.documentMaxBytes,
    receiptLevelsBytes: config.receiptLevelsBytes,
    receiptRedirect: config.receiptRedirect,
    verifyExplorerUrl: config.verifyExplorerUrl,
    bitcoinNetwork: config.bitcoinNetwork,
  };
}

/**
 * A route module: registers its routes on the scope app.ts gives it (`/v1`, `/log`, or the root for `/health`,
 * `/ready` and the pages). It receives the app with the TypeBox type
 * provider ({@link TypedFastify}), so `req.body`, `req.params` and `req.query` have the types of the
 * route's schemas: declare it `export const fooRoutes: RouteModule = (app, deps, config) => { … }` and
 * write no casts. Strings with U+0000 or lone surrogates never reach it (validation.ts, `registerTextGuard`).
 */
export type RouteModule = (app: TypedFastify, deps: RouteDeps, config: RouteConfig) => void;
