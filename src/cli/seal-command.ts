import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServiceApi } from '../app/shared/service-api.port.js';
import { DomainError } from '../core/errors.js';
import { EMPTY_SHA256 } from '../core/hash/hash-check.js';
import { parse, UsageError } from './args.js';
import { CLIENT_OPTIONS, resolveClientSettings, START_HINT, type ClientSettings } from './client-settings.js';
import type { ClientAdapters, ClientContext } from './client-context.js';
import { fileSize, sha256File } from './file-hash.js';
import { progress, type Progress } from './progress.js';

export type { ClientContext };

type AnchorStatus = 'WAIT' | 'SENT' | 'CONFIRMED';
interface AnchorView {
  id: string;
  status: AnchorStatus;
  txId?: string;
  confirmations?: number;
}

const RANK: Record<AnchorStatus, number> = { WAIT: 0, SENT: 1, CONFIRMED: 2 };

/** The API client of the command line; `needAuth` refuses early, with advice, when no credentials are known. */
export function apiClient(
  adapters: ClientAdapters,
  s: ClientSettings,
  { needAuth }: { readonly needAuth: boolean },
): ServiceApi {
  if (needAuth && !s.auth) {
    throw new UsageError(
      'no account credentials: give --token, or --login and --password (or PROOFSEAL_TOKEN, PROOFSEAL_LOGIN and ' +
        'PROOFSEAL_PASSWORD); the default run (npx proofseal start) writes local ones to DATA_DIR/credentials.json',
    );
  }
  return adapters.serviceApi({
    baseUrl: s.apiUrl,
    label: 'proofseal API',
    auth: needAuth ? s.auth : undefined,
    startHint: START_HINT,
  });
}

/**
 * `proofseal seal <file> [--private] [--name N] [--confirmed] [--identity ALL|CN,…] [--pub-key ADDRESS] [--timeout S]`:
 * hash the file, have the identity server sign the hash, create the anchor, wait until it is SENT (or
 * CONFIRMED), and save the receipt as `<file>.receipt.json`.
 */
export async function sealCommand(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, {
    ...CLIENT_OPTIONS,
    private: { type: 'boolean' },
    name: { type: 'string' },
    confirmed: { type: 'boolean' },
    identity: { type: 'string' },
    'pub-key': { type: 'string' },
    timeout: { type: 'string' },
  });
  if (positionals.length !== 1)
    throw new UsageError('usage: proofseal seal <file> [--private] [--name N] [--confirmed] [--identity ALL|CN,O,…]');
  const file = positionals[0]!;
  const timeoutMs = parseTimeout(values.timeout);
  const settings = await resolveClientSettings(values, ctx);
  if (!settings.identityToken)
    throw new UsageError(
      'no identity API token: give --identity-token (or PROOFSEAL_IDENTITY_TOKEN); the default run writes a local one to DATA_DIR/credentials.json',
    );
  const api = apiClient(ctx.adapters, settings, { needAuth: true });
  const p = progress();
  try {
    const hash = await hashWithProgress(file, p);
    p.update('signing the hash on the identity server');
    const signed = await ctx.adapters
      .identitySigner({ baseUrl: settings.identityUrl, token: settings.identityToken, startHint: START_HINT })
      .sign({
        hashToSign: hash,
        identityToSign: values.identity as string | undefined,
        pubKey: values['pub-key'] as string | undefined,
      });
    p.update('creating the anchor');
    const body = {
      name: (values.name as string | undefined) ?? path.basename(file),
      ...signed,
      public: values.private !== true,
    };
    const anchor = (await api.request<AnchorView>('POST', '/v1/anchor', { body })).body;
    p.note(`anchor ${anchor.id} created (${anchor.status}); later: proofseal receipt ${anchor.id}`);
    const final = await waitForStatus(api, anchor.id, values.confirmed ? 'CONFIRMED' : 'SENT', p, timeoutMs);
    const receipt = (await api.request<object>('GET', `/v1/receipt/${anchor.id}`)).body;
    const receiptFile = `${file}.receipt.json`;
    await fs.writeFile(receiptFile, `${JSON.stringify(receipt, null, 2)}\n`);
    p.done();
    ctx.out(
      values.json
        ? JSON.stringify({
            anchorId: anchor.id,
            hash,
            status: final.status,
            txId: final.txId,
            receiptFile,
            public: body.public,
          })
        : `sealed: ${file}\n  hash     ${hash}\n  anchor   ${anchor.id} (${final.status}${final.txId ? `, tx ${final.txId}` : ''})\n  receipt  ${receiptFile}\n  check:   proofseal verify ${file} ${receiptFile}`,
    );
  } catch (err) {
    p.done();
    throw err;
  }
}

async function hashWithProgress(file: string, p: Progress): Promise<string> {
  const size = await fileSize(file);
  const tenths = (done: number) => (size === 0 ? 100 : Math.floor((done / size) * 10) * 10);
  const hash = await sha256File(file, (done) => p.update(`hashing ${path.basename(file)}: ${tenths(done)}%`));
  if (hash === EMPTY_SHA256)
    throw new DomainError('INVALID_HASH', `${file} is empty: the hash of empty data cannot be sealed`);
  return hash;
}

/** Polls the anchor (every second, then every 5 s after a minute) until it reaches `target`. */
async function waitForStatus(
  api: ServiceApi,
  id: string,
  target: AnchorStatus,
  p: Progress,
  timeoutMs: number,
): Promise<AnchorView> {
  const started = Date.now();
  for (;;) {
    const anchor = (await api.request<AnchorView>('GET', `/v1/anchor/${id}`)).body;
    if (RANK[anchor.status] >= RANK[target]) return anchor;
    p.update(
      anchor.status === 'WAIT'
        ? 'anchor WAIT: waiting for its batch to be sent to Bitcoin'
        : `anchor SENT: waiting for ${target === 'CONFIRMED' ? 'confirmations' : target} (${anchor.confirmations ?? 0} so far)`,
    );
    const elapsed = Date.now() - started;
    if (timeoutMs > 0 && elapsed >= timeoutMs) {
      throw new DomainError(
        'NOT_READY',
        `anchor ${id} is still ${anchor.status} after ${Math.round(elapsed / 1000)}s; get its receipt later with: proofseal receipt ${id}`,
      );
    }
    await new Promise((r) => setTimeout(r, elapsed < 60_000 ? 1000 : 5000));
  }
}

function parseTimeout(v: string | boolean | undefined): number {
  if (v === undefined) return 0;
  if (typeof v !== 'string' || !/^\d+$/.test(v)) throw new UsageError(`--timeout expected seconds, got "${String(v)}"`);
  return Number(v) * 1000;
}
