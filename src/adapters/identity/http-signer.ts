import type { Signer, SignRequest, SignResult } from '../../app/identity/signer.port.js';
import { ServiceClient } from '../client/service-client.js';

export interface HttpSignerOptions {
  /** The identity server's base URL (e.g. `http://localhost:3001`). */
  readonly baseUrl: string;
  /** An identity API token of that server. */
  readonly token: string;
  readonly startHint?: string;
  readonly fetch?: typeof fetch;
}

/** The Signer of a remote identity server: `GET <baseUrl>/sign` with a Bearer identity token. */
export function httpSigner(opts: HttpSignerOptions): Signer {
  const client = new ServiceClient({
    baseUrl: opts.baseUrl,
    label: 'identity server',
    auth: { kind: 'bearer', token: opts.token },
    startHint: opts.startHint,
    fetch: opts.fetch,
  });
  return {
    async sign(request: SignRequest): Promise<SignResult> {
      const { body } = await client.request<SignResult>('GET', '/sign', {
        query: { hashToSign: request.hashToSign, identityToSign: request.identityToSign, pubKey: request.pubKey },
      });
      return body;
    },
  };
}
