/**
 * The server-rendered pages (GET / → /verify, /verify, /sign, /share/{id}/{token}), their bundled assets
 * (GET /assets/:file) and /favicon.ico, with the security headers every page response carries. Assets have
 * content-hashed names, so they are cached for a year.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { DomainError } from '../../../core/errors.js';
import { pickLang } from '../../../web/i18n.js';
import { renderVerifyPage } from '../../../web/pages/verify.page.js';
import { renderSignPage } from '../../../web/pages/sign.page.js';
import { renderSharePage, type ShareFailure } from '../../../web/pages/share.page.js';
import { FAVICON_ICO } from '../../../web/favicon.js';
import { isSharingLinkShape } from '../../../core/signature-requests/sharing-token.js';
import { findSharedRequest } from '../../../app/signature-requests/get-shared-request.js';
import type { AppDeps } from '../../../app/shared/deps.js';
import type { RouteModule, WebAssets } from '../../route-module.js';

export type { WebAssets } from '../../route-module.js';

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

/**
 * The policy of the verification page: the common one, with the block explorer the operator allowed
 * (VERIFY_EXPLORER_URL) added to connect-src, so the page may ask it whether a block is in the best chain.
 */
export function verifyPagePolicy(explorerUrl: string | undefined): string {
  if (explorerUrl === undefined) return CONTENT_SECURITY_POLICY;
  return CONTENT_SECURITY_POLICY.replace("connect-src 'self'", `connect-src 'self' ${new URL(explorerUrl).origin}`);
}

function secure(reply: FastifyReply, policy = CONTENT_SECURITY_POLICY): FastifyReply {
  return reply
    .header('content-security-policy', policy)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin');
}

const LangQuery = Type.Object({ lang: Type.Optional(Type.String({ maxLength: 16 })) });
const SignQuery = Type.Object({
  lang: Type.Optional(Type.String({ maxLength: 16 })),
  signatureRequestURL: Type.Optional(Type.String({ maxLength: 4096 })),
});
const ShareParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  token: Type.String({ maxLength: 128 }),
});

/** Headers and body of an HTML page in `lang`. */
function sendPage(reply: FastifyReply, lang: string, html: string, status = 200, policy?: string): FastifyReply {
  return secure(reply, policy)
    .status(status)
    .header('content-language', lang)
    .header('vary', 'accept-language')
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** The assets of the page whose script is the manifest entry `entry`. */
function pageAssets(assets: WebAssets, entry: string): { script: string; style: string } {
  const script = assets.scripts.get(entry);
  if (!script) throw new Error(`the web bundle has no ${entry}: rebuild it (npm run prepare)`);
  return { script, style: assets.style };
}
const AssetParams = Type.Object({ file: Type.String({ pattern: '^[A-Za-z0-9._-]{1,128}$' }) });

/** Why a sharing link leads nowhere (its form, or no such request), or undefined when it leads to a request. */
async function shareFailure(
  deps: Pick<AppDeps, 'store' | 'secretKey'>,
  id: string,
  token: string,
): Promise<ShareFailure | undefined> {
  if (!isSharingLinkShape(id, token)) return 'badLink';
  return findSharedRequest(deps, { id, token }).then(
    () => undefined,
    (err: unknown) => {
      if (err instanceof DomainError && err.code === 'NOT_FOUND') return 'notFound' as const;
      throw err;
    },
  );
}

/** The pages, on the root scope (not under /v1); none without the bundle (`deps.webAssets` null). */
export const webRoutes: RouteModule = (app, deps, config) => {
  const assets = deps.webAssets;
  if (!assets) return;
  const verifyPolicy = verifyPagePolicy(config.verifyExplorerUrl);
  const verifyOptions = {
    ...(config.verifyExplorerUrl === undefined ? {} : { explorerUrl: config.verifyExplorerUrl }),
    network: config.bitcoinNetwork,
  };
  // The service's home (the footer link of every mail) is its public verification page.
  app.get('/', { schema: { hide: true, querystring: LangQuery } }, async (req, reply) => {
    const { lang } = req.query;
    return secure(reply).redirect(lang === undefined ? '/verify' : `/verify?lang=${encodeURIComponent(lang)}`, 302);
  });
  app.get('/verify', { schema: { hide: true, querystring: LangQuery } }, async (req, reply) => {
    const lang = pickLang(req.query.lang, req.headers['accept-language']);
    return sendPage(reply, lang, renderVerifyPage(lang, assets, verifyOptions), 200, verifyPolicy);
  });
  app.get('/sign', { schema: { hide: true, querystring: SignQuery } }, async (req, reply) => {
    const { query } = req;
    const lang = pickLang(query.lang, req.headers['accept-language']);
    const keep: Record<string, string> =
      query.signatureRequestURL === undefined ? {} : { signatureRequestURL: query.signatureRequestURL };
    const page = renderSignPage(lang, pageAssets(assets, 'sign-page.js'), keep, assets.scripts.get('pdf-worker.js'));
    return sendPage(reply, lang, page);
  });
  app.get(
    '/share/:id/:token',
    { schema: { hide: true, params: ShareParams, querystring: LangQuery } },
    async (req, reply) => {
      const { id, token } = req.params;
      const lang = pickLang(req.query.lang, req.headers['accept-language']);
      const failure = await shareFailure(deps, id, token);
      const path = `/share/${encodeURIComponent(id)}/${encodeURIComponent(token)}`;
      return sendPage(
        reply,
        lang,
        renderSharePage(lang, pageAssets(assets, 'share-page.js'), path, config.bitcoinNetwork, failure),
        failure === undefined ? 200 : 404,
      );
    },
  );
  // Browsers ask every origin for /favicon.ico: a small icon, not a 404 in every page's console.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_req, reply) =>
    secure(reply).header('cache-control', 'public, max-age=86400').type('image/x-icon').send(Buffer.from(FAVICON_ICO)),
  );
  app.get('/assets/:file', { schema: { hide: true, params: AssetParams } }, async (req, reply) => {
    const asset = assets.files.get(req.params.file);
    if (!asset) throw new DomainError('NOT_FOUND', 'no such asset (asset names change with each build)');
    return secure(reply)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type(asset.contentType)
      .send(asset.body);
  });
};
