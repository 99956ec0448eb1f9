import fs from 'node:fs/promises';
import { parse, UsageError } from './args.js';
import { CLIENT_OPTIONS, resolveClientSettings } from './client-settings.js';
import { sha256File } from './file-hash.js';
import { apiClient, type ClientContext } from './seal-command.js';

/** `proofseal receipt <anchorId> [--out FILE]`: the receipt (exit 1 while the anchor still waits for a transaction). */
export async function receiptCommand(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, { ...CLIENT_OPTIONS, out: { type: 'string' } });
  if (positionals.length !== 1) throw new UsageError('usage: proofseal receipt <anchorId> [--out FILE]');
  const id = positionals[0]!;
  const settings = await resolveClientSettings(values, ctx);
  const { status, body } = await apiClient(ctx.adapters, settings, { needAuth: false }).request<object>(
    'GET',
    `/v1/receipt/${encodeURIComponent(id)}`,
    {
      accept: [200, 202],
    },
  );
  if (status === 202) {
    ctx.out(
      values.json
        ? JSON.stringify({ anchorId: id, ready: false, partial: body })
        : `anchor ${id} is not in a Bitcoin transaction yet (WAIT): no receipt yet, try again later`,
    );
    process.exitCode = 1;
    return;
  }
  const text = `${JSON.stringify(body, null, 2)}\n`;
  if (typeof values.out === 'string') {
    await fs.writeFile(values.out, text);
    ctx.out(
      values.json
        ? JSON.stringify({ anchorId: id, ready: true, file: values.out })
        : `receipt of ${id} saved to ${values.out}`,
    );
  } else ctx.out(values.json ? JSON.stringify(body) : text.trimEnd());
}

const PAGE_SIZE = 100;
const MAX_IDS = 10_000;

/**
 * `proofseal find <file>`: the public anchors of the file's hash (exit 1 when there is none): signature
 * anchors that signed it (`signedHash`), then data anchors of it (`hash`), as Woleet's client asks.
 */
export async function findCommand(args: string[], ctx: ClientContext): Promise<void> {
  const { values, positionals } = parse(args, { ...CLIENT_OPTIONS });
  if (positionals.length !== 1) throw new UsageError('usage: proofseal find <file>');
  const hash = await sha256File(positionals[0]!);
  const api = apiClient(ctx.adapters, await resolveClientSettings(values, ctx), { needAuth: false });
  const found = new Set<string>();
  for (const param of ['signedHash', 'hash']) {
    for (let page = 0; found.size < MAX_IDS; page++) {
      const { body } = await api.request<{ content: string[]; last: boolean }>('GET', '/v1/anchorids', {
        query: { [param]: hash, page: String(page), size: String(PAGE_SIZE) },
      });
      for (const id of body.content) found.add(id);
      if (body.last || body.content.length === 0) break;
    }
  }
  const ids = [...found];
  if (values.json) ctx.out(JSON.stringify({ hash, anchorIds: ids }));
  else if (ids.length === 0) ctx.out(`no public anchor of ${hash}`);
  else for (const id of ids) ctx.out(id);
  process.exitCode = ids.length > 0 ? 0 : 1;
}
