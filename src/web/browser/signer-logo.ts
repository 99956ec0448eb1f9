/**
 * Which logo the signing page asks for: `…/logo?signeeId=…` of this origin when the signer's view says a logo is
 * named (`hasLogo`), none otherwise, so a request without a logo costs no request that can only answer 404.
 * No DOM here: tested in node (test/signature-requests/browser/logo-api.test.ts).
 */
export function signerLogoUrl(
  view: { readonly hasLogo?: boolean },
  target: { path: string; signerSecret: string },
): string | null {
  return view.hasLogo === true ? `${target.path}/logo?signeeId=${encodeURIComponent(target.signerSecret)}` : null;
}
