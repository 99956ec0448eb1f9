import type { AttestationRenderer } from '../../app/signature-requests/attestation/attestation.port.js';

/**
 * The PDF renderer, loaded at its first use: pdf-lib and qrcode add ~10 MB of RSS to a process that
 * loads them, and most processes (an idle default run, an API process taking anchors) never render an
 * attestation.
 */
export function lazyAttestationRenderer(): AttestationRenderer {
  let loaded: Promise<AttestationRenderer> | undefined;
  return {
    async render(model) {
      loaded ??= import('./attestation-renderer.js').then((m) => m.pdfAttestationRenderer());
      return (await loaded).render(model);
    },
  };
}
