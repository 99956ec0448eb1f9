/**
 * The server-rendered pages (GET /verify) and their bundled assets (GET /assets/:file), with the security
 * headers every page response carries. Assets have content-hashed names, so they are cached for a year.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DomainError } from '../../../core/errors.js';
import { pickLang } from '../../../web/i18n.js';
import { renderVerifyPage } from '../../../web/pages/verify.page.js';

/** The bundle as the composition root loaded it (see src/adapters/web/web-assets.ts). */
export interface WebAssets {
  readonly script: string;
  readonly style: string;
  readonly files: ReadonlyMap<string, { readonly body: Buffer; readonly contentType: string }>;
}

/** No inline script or style, nothing from another origin, no framing, forms post only here. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin');
}

const LangQuery = Type.Object({ lang: Type.Optional(Type.String({ maxLength: 16 })) });
const AssetParams = Type.Object({ file: Type.String({ pattern: '^[A-Za-z0-9._-]{1,128}$' }) });

/** Register the pages on the root scope (not under /v1). */
export function webRoutes(app: FastifyInstance, assets: WebAssets): void {
  app.get('/verify', { schema: { hide: true, querystring: LangQuery } }, async (req, reply) => {
    const lang = pickLang((req.query as { lang?: string }).lang, req.headers['accept-language']);
    return secure(reply)
      .header('content-language', lang)
      .header('vary', 'accept-language')
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(renderVerifyPage(lang, assets));
  });
  app.get('/assets/:file', { schema: { hide: true, params: AssetParams } }, async (req, reply) => {
    const asset = assets.files.get((req.params as { file: string }).file);
    if (!asset) throw new DomainError('NOT_FOUND', 'no such asset (asset names change with each build)');
    return secure(reply)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type(asset.contentType)
      .send(asset.body);
  });
}
