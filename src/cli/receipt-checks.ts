/**
 * What `verify` checks of one receipt against a file's hash, also used by `request proofs`: a module of its own,
 * so a command that checks receipts loads neither the PDF reading nor the proof bundle's checks.
 */
import {
  verifyReceipt,
  verifyReceiptOffline,
  type ReceiptVerification,
  type SignatureStatus,
} from '../app/anchoring/verify-receipt.js';
import { verifyIdentity } from '../app/identity/verify-identity.js';
import type { ChainpointReceipt } from '../core/chainpoint/receipt.js';
import { DomainError } from '../core/errors.js';
import type { ClientContext } from './client-context.js';
import { resolveClientSettings, type Flags } from './client-settings.js';
import { apiClient } from './seal-command.js';

/** One line of the verdict: ok true ✓, false ✗ (fails the verdict), null ? (could not be checked, informative). */
export interface Check {
  readonly name: string;
  readonly ok: boolean | null;
  readonly text: string;
}

/**
 * What `verify` checks of one receipt against a file's hash: the hash, the signature and the Merkle path
 * here, then (when those hold) the chain through the `verifyReceipt` use case. Also used by `request proofs`.
 */
export async function receiptChecks(
  hash: string,
  receipt: ChainpointReceipt,
  via: { readonly ctx: ClientContext; readonly values: Flags },
): Promise<{ checks: Check[]; chain?: ReceiptVerification }> {
  const checks: Check[] = [fileCheck(hash, receipt), ...localChecks(receipt)];
  if (checks.some((c) => c.ok === false)) return { checks };
  const found = await chainVerification(via.values, receipt, via.ctx);
  if ('error' in found) return { checks: [...checks, found.error] };
  const chain = found.verification;
  return { checks: [...checks, ...(await chainChecks(via.ctx, via.values, receipt, chain))], chain };
}

function fileCheck(fileHash: string, receipt: ChainpointReceipt): Check {
  const sig = receipt.signature;
  const proven = sig ? sig.signedHash : receipt.targetHash;
  return {
    name: 'file',
    ok: fileHash === proven,
    text:
      fileHash === proven
        ? `the file's SHA-256 ${fileHash} is the ${sig ? 'signed hash' : 'target hash'} of the receipt`
        : `the file's SHA-256 ${fileHash} is not the hash the receipt proves (${proven})`,
  };
}

/** The checks that need nothing but the receipt, made by the use case's offline part. */
function localChecks(receipt: ChainpointReceipt): Check[] {
  const offline = verifyReceiptOffline(receipt);
  const checks: Check[] = [];
  if (offline.signature !== null) checks.push(signatureCheck(receipt, offline.signature));
  checks.push({
    name: 'merkle',
    ok: offline.proof,
    text: offline.proof
      ? `the Merkle proof leads to root ${receipt.merkleRoot}`
      : 'the Merkle proof does not lead from targetHash to merkleRoot',
  });
  return checks;
}

function signatureCheck(receipt: ChainpointReceipt, status: SignatureStatus): Check {
  const sig = receipt.signature!;
  if (status === 'SIGNATURE_MISMATCH_RECEIPT')
    return { name: 'signature', ok: false, text: 'targetHash is not the SHA-256 of the signature' };
  const ok = status === 'VERIFIED';
  const who = sig.signedIdentity ? `${sig.pubKey} (${sig.signedIdentity})` : sig.pubKey;
  return {
    name: 'signature',
    ok,
    text: ok ? `the signature by ${who} holds` : `the signature does not hold for ${sig.pubKey}`,
  };
}

/** The `verifyReceipt` use case: on the given Bitcoin node here, or by the service (which runs the same). */
async function chainVerification(
  values: Flags,
  receipt: ChainpointReceipt,
  ctx: ClientContext,
): Promise<{ verification: ReceiptVerification } | { error: Check }> {
  const rpcUrl = values['rpc-url'];
  try {
    if (typeof rpcUrl === 'string') {
      const { adapters } = ctx;
      const deps = { chain: adapters.bitcoinNode(rpcUrl), httpClient: adapters.httpClient, random: adapters.random };
      return { verification: await verifyReceipt(deps, { receipt }) };
    }
    const api = apiClient(ctx.adapters, await resolveClientSettings(values, ctx), { needAuth: false });
    const { body } = await api.request<ReceiptVerification>('POST', '/v1/receipt/verify', { body: receipt });
    return { verification: body };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const hint = typeof rpcUrl === 'string' ? '' : ' (or give --rpc-url of a Bitcoin node)';
    return {
      error: { name: 'bitcoin', ok: false, text: `cannot check the Bitcoin transaction: ${err.message}${hint}` },
    };
  }
}

/**
 * The transaction check, then the identity check: the verification's own, or, when the service could
 * not make it (it does not fetch private addresses, such as the identity server of the default run),
 * one made from this machine with the same use case.
 */
async function chainChecks(
  ctx: ClientContext,
  values: Flags,
  receipt: ChainpointReceipt,
  v: ReceiptVerification,
): Promise<Check[]> {
  const ok = v.code === 'VERIFIED';
  const checks: Check[] = [
    {
      name: 'bitcoin',
      ok,
      text: ok ? confirmedText(receipt, v.confirmations ?? 0, v.timestamp) : `${v.code}: ${v.text}`,
    },
  ];
  const status = v.identityVerificationStatus;
  const askedHere = typeof values['rpc-url'] === 'string';
  const sig = receipt.signature;
  if ((status === null || status === 'HTTP_ERROR') && !askedHere && sig?.identityURL !== undefined) {
    const { httpClient, random } = ctx.adapters;
    checks.push(identityCheck(await verifyIdentity({ httpClient, random }, { ...sig, identityURL: sig.identityURL }))!);
  } else if (status !== null) checks.push(identityCheck(status)!);
  return checks;
}

function identityCheck(status: string | null): Check | null {
  if (status === null) return null;
  if (status === 'VERIFIED')
    return { name: 'identity', ok: true, text: 'the identity server confirms the identity of the key' };
  if (status === 'HTTP_ERROR' || status === 'DEPRECATED_KEY') {
    return {
      name: 'identity',
      ok: null,
      text:
        status === 'DEPRECATED_KEY'
          ? 'the key has since been revoked or has expired'
          : 'the identity server could not be asked',
    };
  }
  return { name: 'identity', ok: false, text: `the identity server does not vouch for the key: ${status}` };
}

function confirmedText(receipt: ChainpointReceipt, confirmations: number, timestamp: number | null): string {
  const when = timestamp ? `, block time ${new Date(timestamp).toISOString()}` : '';
  return `the root is in Bitcoin transaction ${receipt.anchors[0]?.sourceId}, ${confirmations} confirmation${confirmations === 1 ? '' : 's'}${when}`;
}
