/** An attestation model for tests and the bench: `signers` signers, a trail of events, the given bundle attached. */
import type { AttestationModel } from '../../src/app/signature-requests/attestation/attestation-model.js';

export function sampleAttestationModel(bundleJson: string, signers = 2, lang: 'en' | 'fr' = 'en'): AttestationModel {
  const now = Date.UTC(2026, 10, 23, 15, 0, 0);
  const requestId = '0d9f0e6e-2c33-4a57-9d0e-5f3b1c9a7e21';
  const people = Array.from({ length: signers }, (_, i) => ({
    name: `Élodie Français ${i + 1}`,
    email: `signer${i + 1}@example.com`,
    signedOn: now - (signers - i) * 60_000,
    declinedOn: null,
    declineReason: null,
    method: i % 2 === 0 ? ('delegated' as const) : ('own-key' as const),
    otpUsed: i % 3 === 0,
    anchorId: `a3c3b6c0-7b0e-4d8f-9a55-${String(i).padStart(12, '0')}`,
  }));
  return {
    lang,
    requestId,
    state: 'COMPLETED',
    producedAt: now,
    document: { name: 'Lease of the flat', hash: 'ab'.repeat(32), fileName: 'lease.pdf', fileUrl: null },
    requester: { name: 'Hélène Dupré', email: 'owner@example.com' },
    signers: people,
    events: people.flatMap((p) => [
      { date: p.signedOn! - 1000, type: 'VIEWED' as const, actor: `${p.name} <${p.email}>`, comment: null },
      { date: p.signedOn!, type: 'DELEGATE' as const, actor: `${p.name} <${p.email}>`, comment: null },
    ]),
    proofs: people.map((p) => ({
      signer: p.name,
      anchorId: p.anchorId,
      txId: 'cd'.repeat(32),
      blockHeight: 107,
      blockTime: now,
      merkleRoot: 'ef'.repeat(32),
      confirmations: 6,
    })),
    branding: {
      serviceName: 'proofseal',
      serviceUrl: 'https://proofseal.example.com',
      serviceAddress: null,
      brandColor1: null,
      brandColor2: null,
      textColor1: null,
      textColor2: null,
      logo: null,
      logoWanted: false,
      illustration: null,
    },
    sharingUrl: `https://proofseal.example.com/share/${requestId}/${'A'.repeat(43)}`,
    bundle: { fileName: `proof-bundle-${requestId}.json`, json: bundleJson },
  };
}
