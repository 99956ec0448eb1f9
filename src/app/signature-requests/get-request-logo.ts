/**
 * The logo of a signature request (its `serviceLogoURL` var), for the signature and sharing pages: the
 * pages' CSP allows images from their own origin only, so the server fetches the image through the cached,
 * SSRF-guarded branding image source and serves it itself. Asked with a signer's secret or a sharing token.
 */
import { fail } from '../../core/errors.js';
import type { AppDeps } from '../shared/deps.js';
import type { BrandImage } from './attestation/attestation-model.js';
import { findSharedRequest } from './get-shared-request.js';
import type { Vars } from '../../core/signature-requests/limits.js';
import { findSigner } from './signer-secrets.js';

/** The one answer for a request without a logo, or whose logo cannot be fetched or is not a PNG or JPEG. */
export const NO_LOGO_MESSAGE = 'this signature request has no logo to show';

type LogoDeps = Pick<AppDeps, 'store' | 'secretKey' | 'attestation'>;

async function logoOf(deps: LogoDeps, vars: Vars | null): Promise<BrandImage> {
  const url = vars?.serviceLogoURL;
  const image = typeof url === 'string' && deps.attestation ? await deps.attestation.images.get(url) : null;
  if (!image) fail('NO_LOGO', NO_LOGO_MESSAGE);
  return image;
}

/**
 * The logo as a signer sees it: the signer's own `serviceLogoURL` var overrides the request's, as on the page.
 * @throws DomainError NOT_FOUND for an unknown request or a wrong signer secret; NO_LOGO when there is none to show
 */
export async function getSignerLogo(deps: LogoDeps, input: { id: string; signerSecret: string }): Promise<BrandImage> {
  const { request, signer } = await findSigner(deps, { requestId: input.id, signerSecret: input.signerSecret });
  return logoOf(deps, { ...request.vars, ...signer.vars });
}

/**
 * The logo as the sharing link shows it.
 * @throws DomainError NOT_FOUND for an unknown request or a wrong token; NO_LOGO when there is none to show
 */
export async function getSharedLogo(deps: LogoDeps, input: { id: string; token: string }): Promise<BrandImage> {
  return logoOf(deps, (await findSharedRequest(deps, input)).vars);
}
