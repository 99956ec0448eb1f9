import { readFile } from 'node:fs/promises';
import type { HttpClient } from '../../app/shared/http-client.port.js';
import type { TimestampAuthority } from '../../app/signature-requests/attestation/attestation.port.js';
import type { PdfSigner } from '../../app/signature-requests/attestation/pdf-signer.port.js';
import { DomainError } from '../../core/errors.js';
import type { PrepareSignatureField } from './pades-signer.js';
import type { SigningIdentity } from './signing-identity.js';

export interface PadesSettings {
  readonly secretKey: string;
  /** Subject (CN) of the service's own certificate. */
  readonly serviceName: string;
  /** An operator PKCS#12 file and its password; unset, the service's own certificate under SECRET_KEY. */
  readonly p12Path?: string | undefined;
  readonly p12Password?: string | undefined;
  /** RFC 3161 authorities, tried in order; empty: no time-stamp (B-B). */
  readonly tsaUrls: readonly string[];
  /** The client for the TSA URLs: operator settings, so one that may reach private addresses. */
  readonly tsaHttp: HttpClient;
  /** The guarded client (SSRF guard) for the CRLs the certificates name; absent, none is fetched. */
  readonly revocationHttp?: HttpClient;
  readonly now: () => number;
  /** Where the signature field is added (a PDF worker); in this thread when absent. */
  readonly prepare?: PrepareSignatureField;
}

/**
 * The PAdES signer, loaded at its first use like the renderer (PKI.js and the pdf-lib fork weigh on a
 * process that never signs). The identity is opened once; a failure to open it is retried next time.
 * A signature the service cannot make now (no TSA answered, the PKCS#12 unusable) is NOT_READY: the
 * attestation is then neither kept nor served unsigned, and the next request tries again.
 */
export function lazyPadesSigner(settings: PadesSettings): PdfSigner {
  let loaded: Promise<PdfSigner> | undefined;
  let identity: Promise<SigningIdentity> | undefined;
  const openIdentity = () => {
    identity ??= loadIdentity(settings).catch((err: unknown) => {
      identity = undefined;
      throw err;
    });
    return identity;
  };
  return {
    async sign(pdf) {
      loaded ??= (async () => {
        const [{ padesSigner }, { rfc3161Client }] = await Promise.all([
          import('./pades-signer.js'),
          import('./tsa-client.js'),
        ]);
        const tsa = settings.tsaUrls.length > 0 ? rfc3161Client(settings.tsaHttp, settings.tsaUrls) : undefined;
        const { revocationHttp, prepare } = settings;
        return padesSigner({
          identity: openIdentity,
          now: settings.now,
          ...(tsa && { tsa }),
          ...(revocationHttp && { revocationHttp }),
          ...(prepare && { prepare }),
        });
      })();
      try {
        return await (await loaded).sign(pdf);
      } catch (err) {
        // The details (operator URLs, file) stay out of the client's answer.
        const reason = NOT_READY_REASONS[(err as Error).name];
        if (reason) throw new DomainError('NOT_READY', `the PDF cannot be signed now: ${reason}`);
        throw err;
      }
    },
  };
}

const NOT_READY_REASONS: Record<string, string> = {
  TimestampError: 'no time-stamping authority answered (TSA_URLS)',
  SigningIdentityError: 'the signing certificate is unusable (PDF_SIGNING_P12, PDF_SIGNING_P12_PASSWORD)',
};

async function loadIdentity(settings: PadesSettings): Promise<SigningIdentity> {
  const { p12SigningIdentity, serviceSigningIdentity, SigningIdentityError } = await import('./signing-identity.js');
  if (settings.p12Path === undefined) return serviceSigningIdentity(settings.secretKey, settings.serviceName);
  const p12 = await readFile(settings.p12Path).catch((err: NodeJS.ErrnoException) => {
    throw new SigningIdentityError(`cannot read PDF_SIGNING_P12: ${err.code ?? err.message}`);
  });
  return p12SigningIdentity(p12, settings.p12Password ?? '');
}

/** The RFC 3161 client of TSA_URLS for the bundles' Merkle roots, loaded at its first use (PKI.js). */
export function lazyTimestampAuthority(http: HttpClient, urls: readonly string[]): TimestampAuthority {
  let loaded: Promise<TimestampAuthority> | undefined;
  return {
    async timestamp(message) {
      loaded ??= import('./tsa-client.js').then(({ rfc3161Client }) => rfc3161Client(http, urls));
      return (await loaded).timestamp(message);
    },
  };
}
