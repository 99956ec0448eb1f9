import type {
  AttestationRenderer,
  SignedCopyAssembler,
} from '../../app/signature-requests/attestation/attestation.port.js';

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

/** The signed copy's assembler, loaded at its first use for the same reason (the pdf-lib fork). */
export function lazySignedCopyAssembler(): SignedCopyAssembler {
  let loaded: Promise<SignedCopyAssembler> | undefined;
  return {
    async assemble(original, attestation, attachment) {
      loaded ??= import('./signed-copy-assembler.js').then((m) => m.pdfSignedCopyAssembler());
      return (await loaded).assemble(original, attestation, attachment);
    },
  };
}
