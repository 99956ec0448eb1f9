/**
 * The checks of a signed copy's own bytes in the browser, with the command line's core code: the original found
 * by its hash, each PDF signature (CMS over its byte ranges, with the certificate inside), the last one covering
 * the whole file, and where a changed byte is (core/documents/signed-copy-checks.ts). The CMS signatures are
 * verified with WebCrypto; a page without it says the check was not run.
 */
import { checkPdfSignatures } from '../../core/documents/pdf-signatures.js';
import { copySigner, signedCopyChecks } from '../../core/documents/signed-copy-checks.js';
import type { SignedCopyFound } from './signed-copy-input.js';
import type { Check } from './verify-checks.js';

/** The copy's checks and the name of the certificate that signed it last (null: none, or not checked). */
export async function copyChecks(
  copy: SignedCopyFound,
  { bundleHolds }: { readonly bundleHolds: boolean },
): Promise<{ checks: Check[]; signer: string | null }> {
  if (!globalThis.crypto?.subtle)
    return { checks: [{ state: 'skip', group: 'copy', key: 'copyNotRun' }], signer: null };
  const signatures = await checkPdfSignatures(copy.bytes);
  const checks = signedCopyChecks({ ...copy, size: copy.bytes.length, signatures, bundleHolds });
  return {
    checks: checks.map((c) => ({ state: c.state, group: 'copy', key: c.key, params: c.params })),
    signer: copySigner(signatures),
  };
}
