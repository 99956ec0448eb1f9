/**
 * RFC 3161 time-stamp requests to the authorities the operator named (TSA_URLS), tried in order until one
 * answers with a token that matches the request (same SHA-256 imprint, same nonce) and whose signature
 * checks out with the certificate the token carries.
 *
 * The URLs are operator settings, not user input: the HTTP client given here may be one that allows
 * private addresses (a TSA inside the operator's network), unlike the client that fetches users' URLs.
 * It still pins the resolved address, follows no redirect and bounds time and size.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { HttpClient } from '../../app/shared/http-client.port.js';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const ID_SIGNED_DATA = '1.2.840.113549.1.7.2';
/** A token with its TSA certificate chain stays far under this. */
const MAX_REPLY_BYTES = 256 * 1024;
const TIMEOUT_MS = 15_000;

export interface TimestampAuthority {
  /** The DER TimeStampToken (a CMS ContentInfo) over the SHA-256 of `message`. @throws TimestampError */
  timestamp(message: Uint8Array): Promise<Uint8Array>;
}

/** No configured authority gave a usable token; the message lists each one's reason. */
export class TimestampError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimestampError';
  }
}

export function rfc3161Client(http: HttpClient, urls: readonly string[]): TimestampAuthority {
  return {
    async timestamp(message) {
      const reasons: string[] = [];
      for (const url of urls) {
        try {
          return await requestToken(http, url, message);
        } catch (err) {
          reasons.push(`${url}: ${(err as Error).message}`);
        }
      }
      throw new TimestampError(`no time-stamping authority answered: ${reasons.join('; ') || 'none configured'}`);
    },
  };
}

async function requestToken(http: HttpClient, url: string, message: Uint8Array): Promise<Uint8Array> {
  const digest = createHash('sha256').update(message).digest();
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0]! & 0x7f) | 0x01; // a positive INTEGER, minimal in DER (no leading zero byte)
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: digest }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  const res = await http.request({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
    body: new Uint8Array(request.toSchema().toBER()),
    timeoutMs: TIMEOUT_MS,
    maxResponseBytes: MAX_REPLY_BYTES,
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
  return checkedToken(res.body, message, nonce);
}

/** The token of a reply, once it is granted, about our imprint and nonce, and signed by the cert it carries. */
async function checkedToken(reply: Uint8Array, message: Uint8Array, nonce: Buffer): Promise<Uint8Array> {
  const resp = pkijs.TimeStampResp.fromBER(reply);
  const status = resp.status.status;
  if (status !== 0 && status !== 1) throw new Error(`the request was refused (PKIStatus ${status})`);
  const token = resp.timeStampToken ?? fail('a granted reply without a token');
  if (token.contentType !== ID_SIGNED_DATA) throw new Error('the token is not CMS SignedData');
  const signed = new pkijs.SignedData({ schema: token.content });
  const eContent = signed.encapContentInfo.eContent ?? fail('the token has no TSTInfo');
  const info = pkijs.TSTInfo.fromBER(eContent.getValue());
  if (info.messageImprint.hashAlgorithm.algorithmId !== SHA256) throw new Error('the token imprint is not SHA-256');
  if (!info.nonce || !Buffer.from(info.nonce.valueBlock.valueHexView).equals(nonce))
    throw new Error('the token does not echo our nonce');
  // PKI.js checks the imprint against `message` and the token's signature with the certificate it carries.
  const data = new Uint8Array(message).buffer;
  const verified = await signed.verify({ signer: 0, data, checkChain: false, extendedMode: false }).catch(() => false);
  if (!verified) throw new Error('the token does not verify (another imprint or a bad signature)');
  return new Uint8Array(token.toSchema().toBER());
}

function fail(message: string): never {
  throw new Error(message);
}
