/**
 * What a route module is and what it is given. The route modules (`routes/**\/*.route.ts`) import this
 * module, never app.ts and never one another: app.ts imports them, so the import graph has no circle.
 */
import type { AppDeps } from '../app/shared/deps.js';
import type { TypedFastify } from './validation.js';

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
  };
}

/**
 * A route module: registers its routes on the `/v1` scope. It receives the app with the TypeBox type
 * provider ({@link TypedFastify}), so `req.body`, `req.params` and `req.query` have the types of the
 * route's schemas: declare it `export const fooRoutes: RouteModule = (app, deps, config) => { … }` and
 * write no casts. Strings with U+0000 or lone surrogates never reach it (validation.ts, `registerTextGuard`).
 */
export type RouteModule = (app: TypedFastify, deps: AppDeps, config: RouteConfig) => void;
