/** Helpers the signature-request route modules share (they never import one another). */
import type { FastifyRequest } from 'fastify';
import type { Origin } from '../../../app/signature-requests/audit.js';
import type { AppDeps } from '../../../app/shared/deps.js';
import { ownerView } from '../../../app/signature-requests/signature-request-view.js';
import type { SignatureRequest } from '../../../app/signature-requests/signature-request.port.js';
import { sharingPath } from '../../../core/signature-requests/sharing-token.js';
import type { RouteConfig } from '../../route-module.js';

/** IP and user agent of a request, for the audit trail. */
export function originOf(req: FastifyRequest): Origin {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, ...(typeof ua === 'string' && { userAgent: ua }) };
}

/**
 * A signer's call as its use case takes it: the request id, the body or parameters without the wire's `signeeId`,
 * which becomes `signerSecret` (the link's secret, never logged), and the caller's origin.
 */
export function signerCall<T extends { readonly signeeId: string }>(
  req: FastifyRequest,
  id: string,
  fields: T,
): Omit<T, 'signeeId'> & { id: string; signerSecret: string; origin: Origin } {
  const { signeeId, ...rest } = fields;
  return { ...rest, id, signerSecret: signeeId, origin: originOf(req) };
}

/**
 * The owner's view of a request with its sharing link (`signatureRequestSharingURL`, the URL of the sharing
 * page under PUBLIC_URL; it answers once the request has left DRAFT).
 */
export function ownerViewWithLink(deps: Pick<AppDeps, 'secretKey'>, config: Pick<RouteConfig, 'publicUrl'>) {
  const publicUrl = config.publicUrl.replace(/\/+$/, '');
  return (r: SignatureRequest) => ({
    ...ownerView(r),
    signatureRequestSharingURL: publicUrl + sharingPath(deps.secretKey, r.id),
  });
}
