import fs from 'node:fs/promises';
import { BitcoinRpcClient } from '../adapters/chain/bitcoin-rpc.js';
import { createSafeFetch } from '../adapters/net/safe-fetch.js';
import { systemRandom } from '../adapters/system/system.js';
import { verifyIdentity } from '../app/identity/verify-identity.js';
import { parseOpReturn } from '../core/bitcoin/op-return.js';
import { verifySignedMessage } from '../core/bitcoin/signed-message.js';
import { checkReceiptPath, signatureMatchesTarget, type ChainpointReceipt } from '../core/chainpoint/receipt.js';
import { validateReceipt } from '../core/chainpoint/validate.js';
import { DomainError } from '../core/errors.js';
import { messageToSign } from '../core/identity/identity-message.js';
import { parse, UsageError } from './args.js';
import { CLIENT_OPTIONS, resolveClientSettings, type ClientSettings } from './client-settings.js';
import { sha256File } from './file-hash.js';
import { apiClient, type ClientContext } from './seal-command.js';

/** One line of the verdict: ok true ✓, false ✗ (fails the verdict), null ? (could not be checked, informative). */
export interface Check {
  readonly name: string;
  readonly ok: boolean | null;
  readonly text: string;
}
export interface ChainResult {
  readonly checks: Check[];
  readonly timestamp?: number;
  readonly confirmations?: number;
  /** True when the service could ask the identity server (its answer is among the checks). */
  readonly identityChecked?: boolean;
}

/**
 * `proofseal verify <file> [<receipt.json>] [--rpc-url URL]`: checks locally that the file is the one
 * the receipt proves (its hash), the signature and the Merkle path; then that the root is in a
 * confirmed Bitcoin transaction, through the service's `POST /v1/receipt/verify` or a Bitcoin node.
 * Exit code 0 when verified, 1 when not.
 */
export async function verifyCommand(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, { ...CLIENT_OPTIONS, 'rpc-url': { type: 'string' } });
  if (positionals.length < 1 || positionals.length > 2)
    throw new UsageError('usage: proofseal verify <file> [<receipt.json>] [--rpc-url URL]');
  const file = positionals[0]!;
  const receiptFile = positionals[1] ?? `${file}.receipt.json`;
  const hash = await sha256File(file);
  const parsed = await readReceipt(receiptFile);
  const via = {
    rpcUrl: values['rpc-url'] as string | undefined,
    settings: () => resolveClientSettings(values, ctx.env, ctx.dataDir),
  };
  const { checks, chain } =
    'error' in parsed
      ? { checks: [{ name: 'receipt', ok: false, text: parsed.error }], chain: { checks: [] } }
      : await receiptChecks(hash, parsed.receipt, via);
  const verified = checks.every((c) => c.ok !== false);
  const receipt = 'receipt' in parsed ? parsed.receipt : undefined;
  report(ctx, { file, hash, verified, checks, chain, receipt }, values.json === true);
  process.exitCode = verified ? 0 : 1;
}

/**
 * Every check of `verify` for one receipt and the hash it should prove: locally (hash, signature, Merkle
 * path), then the transaction (through the service's `POST /v1/receipt/verify`, or a Bitcoin node when
 * `rpcUrl` is given), then the identity. Used by `verify` and by `request proofs`.
 */
export async function receiptChecks(
  hash: string,
  receipt: ChainpointReceipt,
  via: { rpcUrl: string | undefined; settings: () => Promise<ClientSettings> },
): Promise<{ checks: Check[]; chain: ChainResult }> {
  const checks = localChecks(hash, receipt);
  if (checks.some((c) => c.ok === false)) return { checks, chain: { checks: [] } };
  const chain = via.rpcUrl
    ? await chainByNode(via.rpcUrl, receipt)
    : await chainByService(await via.settings(), receipt);
  checks.push(...chain.checks);
  const identity = chain.identityChecked ? null : await identityByClient(receipt);
  if (identity) checks.push(identity);
  return { checks, chain };
}

async function readReceipt(file: string): Promise<{ receipt: ChainpointReceipt } | { error: string }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read the receipt ${file}`);
  }
  try {
    return { receipt: validateReceipt(JSON.parse(text)) };
  } catch (err) {
    return { error: `${file} is not a valid Chainpoint v2 receipt: ${(err as Error).message}` };
  }
}

/** The checks that need nothing but the file and the receipt. */
export function localChecks(fileHash: string, receipt: ChainpointReceipt): Check[] {
  const sig = receipt.signature;
  const proven = sig ? sig.signedHash : receipt.targetHash;
  const checks: Check[] = [
    {
      name: 'file',
      ok: fileHash === proven,
      text:
        fileHash === proven
          ? `the file's SHA-256 ${fileHash} is the ${sig ? 'signed hash' : 'target hash'} of the receipt`
          : `the file's SHA-256 ${fileHash} is not the hash the receipt proves (${proven})`,
    },
  ];
  if (sig) checks.push(signatureCheck(receipt));
  const pathOk = checkReceiptPath(receipt);
  checks.push({
    name: 'merkle',
    ok: pathOk,
    text: pathOk
      ? `the Merkle proof leads to root ${receipt.merkleRoot}`
      : 'the Merkle proof does not lead from targetHash to merkleRoot',
  });
  return checks;
}

function signatureCheck(receipt: ChainpointReceipt): Check {
  const sig = receipt.signature!;
  if (!signatureMatchesTarget(receipt))
    return { name: 'signature', ok: false, text: 'targetHash is not the SHA-256 of the signature' };
  let ok = false;
  try {
    ok = verifySignedMessage(messageToSign(sig), sig.signature, sig.pubKey).ok;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
  }
  const who = sig.signedIdentity ? `${sig.pubKey} (${sig.signedIdentity})` : sig.pubKey;
  return {
    name: 'signature',
    ok,
    text: ok ? `the signature by ${who} holds` : `the signature does not hold for ${sig.pubKey}`,
  };
}

interface ServiceVerification {
  code: string;
  text: string;
  timestamp: number | null;
  confirmations: number | null;
  identityVerificationStatus: string | null;
}

async function chainByService(s: ClientSettings, receipt: ChainpointReceipt): Promise<ChainResult> {
  let v: ServiceVerification;
  try {
    v = (await apiClient(s, false).request<ServiceVerification>('POST', '/v1/receipt/verify', { body: receipt })).body;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return {
      checks: [
        {
          name: 'bitcoin',
          ok: false,
          text: `cannot check the Bitcoin transaction: ${err.message} (or give --rpc-url of a Bitcoin node)`,
        },
      ],
    };
  }
  const ok = v.code === 'VERIFIED';
  const checks: Check[] = [
    {
      name: 'bitcoin',
      ok,
      text: ok ? confirmedText(receipt, v.confirmations ?? 0, v.timestamp) : `${v.code}: ${v.text}`,
    },
  ];
  const askedIdentity = v.identityVerificationStatus !== null && v.identityVerificationStatus !== 'HTTP_ERROR';
  if (askedIdentity) checks.push(identityCheck(v.identityVerificationStatus)!);
  return {
    checks,
    timestamp: v.timestamp ?? undefined,
    confirmations: v.confirmations ?? undefined,
    identityChecked: askedIdentity,
  };
}

/**
 * The identity check made from this machine, when the service could not make it (it does not fetch
 * private addresses, such as the identity server of the default run) or was not asked (--rpc-url).
 */
async function identityByClient(receipt: ChainpointReceipt): Promise<Check | null> {
  const sig = receipt.signature;
  if (sig?.identityURL === undefined) return null;
  const httpClient = createSafeFetch({ allowPrivateUrls: true });
  return identityCheck(
    await verifyIdentity({ httpClient, random: systemRandom }, { ...sig, identityURL: sig.identityURL }),
  );
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

async function chainByNode(rpcUrl: string, receipt: ChainpointReceipt): Promise<ChainResult> {
  const node = new BitcoinRpcClient({ url: rpcUrl });
  const root = Buffer.from(receipt.merkleRoot, 'hex');
  for (const anchor of receipt.anchors) {
    let tx;
    try {
      tx = await node.getRawTransaction(anchor.sourceId);
    } catch (err) {
      return {
        checks: [{ name: 'bitcoin', ok: false, text: `the Bitcoin node does not answer: ${(err as Error).message}` }],
      };
    }
    if (!tx) continue;
    if (!tx.vout.some((o) => parseOpReturn(Buffer.from(o.scriptHex, 'hex'))?.equals(root))) {
      return {
        checks: [
          {
            name: 'bitcoin',
            ok: false,
            text: `transaction ${tx.txid} does not carry the merkle root in its OP_RETURN`,
          },
        ],
      };
    }
    if (tx.confirmations < 1 || tx.blockTime === null)
      return {
        checks: [{ name: 'bitcoin', ok: false, text: `transaction ${tx.txid} is not confirmed yet; retry later` }],
      };
    const timestamp = tx.blockTime * 1000;
    return {
      checks: [{ name: 'bitcoin', ok: true, text: confirmedText(receipt, tx.confirmations, timestamp) }],
      timestamp,
      confirmations: tx.confirmations,
    };
  }
  return {
    checks: [
      {
        name: 'bitcoin',
        ok: false,
        text: 'the node knows no transaction of the receipt (wrong network, or a node without -txindex?)',
      },
    ],
  };
}

function confirmedText(receipt: ChainpointReceipt, confirmations: number, timestamp: number | null): string {
  const when = timestamp ? `, block time ${new Date(timestamp).toISOString()}` : '';
  return `the root is in Bitcoin transaction ${receipt.anchors[0]?.sourceId}, ${confirmations} confirmation${confirmations === 1 ? '' : 's'}${when}`;
}

interface Verdict {
  file: string;
  hash: string;
  verified: boolean;
  checks: Check[];
  chain: ChainResult;
  receipt: ChainpointReceipt | undefined;
}

function report(ctx: ClientContext, v: Verdict, json: boolean): void {
  if (json) {
    ctx.out(
      JSON.stringify({
        verdict: v.verified ? 'VERIFIED' : 'NOT_VERIFIED',
        file: v.file,
        hash: v.hash,
        checks: v.checks,
        timestamp: v.chain.timestamp,
        confirmations: v.chain.confirmations,
        txId: v.receipt?.anchors[0]?.sourceId,
        pubKey: v.receipt?.signature?.pubKey,
      }),
    );
    return;
  }
  for (const c of v.checks) ctx.out(`${c.ok === true ? '✓' : c.ok === false ? '✗' : '?'} ${c.text}`);
  if (!v.verified) {
    ctx.out(`NOT VERIFIED: ${v.checks.find((c) => c.ok === false)?.text ?? 'a check failed'}`);
    return;
  }
  const when = v.chain.timestamp ? ` existed at ${new Date(v.chain.timestamp).toISOString()}` : ' is proven';
  const by = v.receipt?.signature
    ? `, sealed by ${v.receipt.signature.signedIdentity ?? v.receipt.signature.pubKey}`
    : '';
  ctx.out(`VERIFIED: ${v.file}${when}${by}`);
}
