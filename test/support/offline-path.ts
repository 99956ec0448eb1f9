/**
 * Issue 31 §4, the README's offline path on the product as users run it: a running `proofseal start` (any role
 * split) takes a PDF from the CLI, the signer signs it in Chromium from the link of her invitation, the owner saves
 * the signed copy and writes a headers file (`proofseal headers --out`), the service stops, and then only files
 * and our verifiers (the CLI, the standalone page from `file://`) and tools we did not write (pdfsig, qpdf) are
 * used. {@link offlinePathTests} declares those steps as the tests of one `describe`, given how to start the
 * service; each test file gives one role split.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { Browser, Page } from 'playwright-core';
import { checkpointPublicKey, verifierKey } from '../../src/core/tlog/checkpoint.js';
import { launchChromium } from './chromium.js';
import { cli, type CliResult } from './default-run.js';
import { signatureAt, tool } from './pdf-checks.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The standalone verification page `npm start` builds (scripts/build-web.mjs). */
const STANDALONE_PAGE = path.join(ROOT, 'dist', 'proofseal-verify.html');

/** A service started for the path: its CLI for the owner and the operator, and how to stop it. */
export interface RunningService {
  /** `proofseal <args>` as the owner and the operator run it beside this service. */
  cli(args: string[]): Promise<CliResult>;
  /** What the service's processes printed so far. */
  output(): string;
  /** Stops every process of the service (SIGTERM); nothing answers at `apiUrl` afterwards. */
  stop(): Promise<void>;
  /** Stops what is left and removes the service's data. */
  close(): Promise<void>;
  readonly apiUrl: string;
}

type Bundle = Record<string, unknown> & {
  bitcoinSpv?: { blockHeight: number; txid: string }[];
  transparencyLog?: { checkpoint: string; signatures: (object | null)[]; auditTrail?: object; events?: object[] };
};

/** What the CLI answered, and the service's output when the command failed, for an assertion's message. */
const said = (r: CliResult, service?: RunningService) =>
  `exit ${r.code}\n${r.stdout}${r.stderr}${service && r.code !== 0 ? `\n--- service:\n${service.output().slice(-4000)}` : ''}`;

/** A two-page contract, as a user would have one. */
async function contractPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2])
    doc.addPage([595, 842]).drawText(`Lease agreement, page ${n} (${randomBytes(4).toString('hex')})`, {
      x: 60,
      y: 760,
      size: 16,
      font,
    });
  return Buffer.from(await doc.save());
}

/** Polls `probe` every second until it gives a value; past `ms`, fails naming `what`. */
async function until<T>(what: string, probe: () => Promise<T | null>, ms: number, log: () => string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== null) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n--- service:\n${log().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** The proof bundle attached to a PDF, as `pdfdetach -saveall` writes it. */
function attachedBundle(pdf: string, into: string): Bundle {
  mkdirSync(into, { recursive: true });
  const detached = tool('pdfdetach', ['-saveall', '-o', into, pdf]);
  assert.equal(detached.status, 0, detached.out);
  const names = readdirSync(into).filter((n) => /^proof-bundle-.*\.json$/.test(n));
  assert.equal(names.length, 1, `one proof bundle attached to ${pdf}: ${readdirSync(into).join(', ')}`);
  return JSON.parse(readFileSync(path.join(into, names[0]!), 'utf8')) as Bundle;
}

/** A bundle's parts that anyone holding the PDF gets: the owner's openings of commitments left out. */
function publicParts(bundle: Bundle): Bundle {
  const ownerOnly = ['auditTrailOpenings', 'signatureOpenings'];
  return Object.fromEntries(Object.entries(bundle).filter(([k]) => !ownerOnly.includes(k)));
}

const flipByte = (bytes: Buffer, at: number): Buffer => {
  const b = Buffer.from(bytes);
  b[at] ^= 0x01;
  return b;
};

/** The end of line after the first object of the appended revision: a byte the PDF signature covers, the PDF still parses. */
function appendedByteAt(copy: Buffer, originalLength: number): number {
  const at = copy.indexOf('endobj\n', originalLength) + 'endobj'.length;
  assert.ok(at > originalLength && at < signatureAt(copy, -1).range[1]!, 'an object appended inside the signed range');
  return at;
}

/** A byte in the middle of the attached bundle's (compressed) stream. */
function bundleByteAt(copy: Buffer): number {
  const file = copy.indexOf('/Type /EmbeddedFile\n');
  const length = Number(/\/Length (\d+)/.exec(copy.subarray(file, file + 400).toString('latin1'))?.[1]);
  assert.ok(file > 0 && length > 0, 'the bundle is an embedded file stream');
  return copy.indexOf('stream\n', file) + 'stream\n'.length + Math.floor(length / 2);
}

/**
 * The tests of the offline path, in order, on the service `start` gives (started once, in `before`). They share
 * one request: each step works on what the one before it made, as the user's would.
 */
export function offlinePathTests(start: () => Promise<RunningService>): void {
  const work = mkdtempSync(path.join(os.tmpdir(), 'proofseal-offline-path-'));
  const at = (name: string) => path.join(work, name);
  /** `proofseal <args>` with no service: no settings of the run, a DATA_DIR of its own. */
  const offline = (args: string[]) => cli(args, { PATH: process.env.PATH, HOME: work, DATA_DIR: at('client') });
  let service: RunningService;
  let browser: Browser;
  let id = '';
  let original: Buffer;
  let copy: Buffer;
  let bundle: Bundle;
  let logKey = '';

  before(async () => {
    // What `npm start` does first (its prestart): the pages' browser bundle and the standalone page.
    const built = spawnSync(process.execPath, ['scripts/build-web.mjs'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    // One after the other: a service that fails to start must leave no browser open behind it (the run would hang).
    browser = await launchChromium();
    service = await start();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('create from a PDF, sign in Chromium from the invitation, COMPLETED, save the signed copy', async () => {
    original = await contractPdf();
    writeFileSync(at('contract.pdf'), original);
    const created = await service.cli([
      'request',
      'create',
      at('contract.pdf'),
      '--signer',
      'Ann Lee <ann@example.com>',
      '--json',
    ]);
    assert.equal(created.code, 0, said(created, service));
    id = (JSON.parse(created.stdout) as { id: string }).id;
    const link = await invitationLink(service, id);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(link);
    await page.locator('#sign-button').click({ timeout: 60_000 });
    await page.locator('#done').waitFor({ state: 'visible', timeout: 60_000 });
    await page.close();
    const shown = JSON.parse((await service.cli(['request', 'show', id, '--json'])).stdout) as { state: string };
    assert.equal(shown.state, 'COMPLETED');
    const saved = await until(
      'the signed copy',
      async () => {
        const r = await service.cli(['request', 'signed-copy', id, '-o', at('contract-signed.pdf')]);
        if (r.code === 0) return r.stdout;
        assert.match(r.stdout, /not all confirmed yet/, said(r, service));
        return null;
      },
      180_000,
      service.output,
    );
    assert.match(saved, new RegExp(`its first ${original.length} bytes are the original`));
    copy = readFileSync(at('contract-signed.pdf'));
    assert.ok(copy.subarray(0, original.length).equals(original), 'the original, unchanged, starts the copy');
    bundle = attachedBundle(at('contract-signed.pdf'), at('from-copy'));
  });

  it('the bundle a job built (attestation, signed copy) is the bundle the API serves, SPV data included', async () => {
    const attestation = await service.cli(['request', 'attestation', id, '-o', at('attestation.pdf')]);
    assert.equal(attestation.code, 0, said(attestation, service));
    const fromAttestation = attachedBundle(at('attestation.pdf'), at('from-attestation'));
    await service.cli(['request', 'proofs', id, '--out', at('served.json')]);
    const served = JSON.parse(readFileSync(at('served.json'), 'utf8')) as Bundle;
    assert.deepEqual(publicParts(fromAttestation), publicParts(served), 'the attestation job and the API agree');
    assert.deepEqual(bundle, fromAttestation, 'the signed copy carries the attestation’s bundle');
    const txids = new Set(
      [...(served.signatureReceipts as Receipt[]), served.auditTrailReceipt as Receipt].map(
        (r) => r.anchors[0]!.sourceId,
      ),
    );
    assert.deepEqual(
      new Set((bundle.bitcoinSpv ?? []).map((e) => e.txid)),
      txids,
      `the kept bundle has SPV data for every transaction its receipts name; its parts: ${Object.keys(bundle).join(', ')}`,
    );
    // The log is on as shipped: the kept bundle proves its signature's and trail's anchors in it.
    const log = bundle.transparencyLog;
    assert.ok(
      log,
      `the kept bundle carries the transparency log's proofs; its parts: ${Object.keys(bundle).join(', ')}`,
    );
    assert.equal(log.signatures.length, 1);
    assert.ok(log.signatures[0] !== null && log.auditTrail !== undefined, JSON.stringify(log).slice(0, 400));
    assert.equal(log.events?.length, 2, 'its SIGNED and COMPLETED events');
  });

  it('proofseal headers --out writes a headers file while the service runs; then the service stops', async () => {
    const written = await service.cli(['headers', '--out', at('headers.txt')]);
    assert.equal(written.code, 0, said(written, service));
    // The log's verifier key, as its operator publishes it (served at /log/key), kept for the offline check.
    const key = await fetch(`${service.apiUrl}/log/key`);
    assert.equal(key.status, 200);
    logKey = (await key.text()).trim();
    const lines = readFileSync(at('headers.txt'), 'utf8')
      .split('\n')
      .filter((l) => /^\d+ [0-9a-f]{160}$/.test(l));
    const height = bundle.bitcoinSpv?.[0]?.blockHeight ?? Infinity;
    assert.ok(
      lines.some((l) => l.startsWith(`${height} `)),
      `the headers reach the anchoring block (${height})`,
    );
    await service.stop();
    const answers = await fetch(`${service.apiUrl}/health`).then(
      () => true,
      () => false,
    );
    assert.equal(answers, false, 'no proofseal server answers any more');
  });

  it('with no server: proofseal verify <signed copy> --headers exits 0; pdfsig and qpdf agree', async () => {
    const verified = await offline(['verify', at('contract-signed.pdf'), '--headers', at('headers.txt')]);
    assert.equal(verified.code, 0, said(verified));
    assert.match(verified.stdout, new RegExp(`✓ its first ${original.length} of ${copy.length} bytes`));
    assert.match(verified.stdout, /✓ the header of block [0-9a-f]{64} carries its proof of work/);
    assert.match(verified.stdout, /VERIFIED: .*no proofseal server was asked/);
    const keyed = await offline([
      'verify',
      at('contract-signed.pdf'),
      '--headers',
      at('headers.txt'),
      '--log-vkey',
      logKey,
    ]);
    assert.equal(keyed.code, 0, said(keyed));
    assert.match(
      keyed.stdout,
      /transparency log: 2 of 2 receipts' anchors and 2 of 2 signing events of the request proven in the log, its checkpoint signed by the log key you gave/,
    );
    // A well-formed key under the log's name, but not its key: the checkpoint's signature is refused.
    const otherKey = verifierKey(logKey.split('+')[0]!, checkpointPublicKey(randomBytes(32)));
    const wrongKey = await offline([
      'verify',
      at('contract-signed.pdf'),
      '--headers',
      at('headers.txt'),
      '--log-vkey',
      otherKey,
    ]);
    assert.equal(wrongKey.code, 1, said(wrongKey));
    assert.match(wrongKey.stdout, /NOT VERIFIED/);
    const sig = tool('pdfsig', [at('contract-signed.pdf')]);
    assert.match(sig.out, /Signature #1:[\s\S]*Total document signed[\s\S]*Signature is Valid\./, sig.out);
    assert.doesNotMatch(sig.out, /Digest Mismatch|Signature is Invalid/, sig.out);
    const checked = tool('qpdf', ['--check', at('contract-signed.pdf')]);
    assert.equal(checked.status, 0, checked.out);
    assert.match(checked.out, /No syntax or stream encoding errors found/);
  });

  it('with no server: the standalone page from file:// verifies the signed copy with the headers file', async () => {
    const page = await standalonePage(browser);
    const r = await verifyOnPage(page, at('contract-signed.pdf'), at('headers.txt'));
    assert.ok(r.classes.includes('ok'), `verdict ${r.classes}: ${r.text}\n${r.details}`);
    assert.match(r.text, /Ann Lee/);
    await page.close();
  });

  it('tampering: a byte of the original part, of the appended part, of the bundle, a header line: each refused', async (t) => {
    const cases: Tampered[] = [
      {
        what: 'a byte of the original part',
        pdf: flipByte(copy, Math.floor(original.length / 2)),
        code: 1,
        message: /NOT VERIFIED: signed copy: the original part was changed: no revision of it .*hashes to the document/,
      },
      // The part named, and the next two refused at all: the signed copy's own PDF signature check (issue 31 §3,
      // branch `verifiers`). Before it: "signed copy: no revision of it…", VERIFIED, and exit 2 ("carries no proof
      // bundle") or 1 (whatever the inflated bytes break) for the bundle.
      {
        what: 'a byte of the appended part',
        pdf: flipByte(copy, appendedByteAt(copy, original.length)),
        code: 1,
        message: /NOT VERIFIED: signed copy: the appended part \(bytes \d+ to \d+: the attestation pages\) was changed/,
      },
      {
        what: 'a byte of the bundle',
        pdf: flipByte(copy, bundleByteAt(copy)),
        code: 1,
        message: /NOT VERIFIED: signed copy: the bundle attached in the appended part .*was changed/,
      },
      {
        what: 'a line of the headers file',
        pdf: copy,
        headers: () => headersWithLineChanged(at('headers.txt'), bundle.bitcoinSpv?.[0]?.blockHeight ?? -1),
        code: 2,
        message: /line \d+: the header at height \d+ does not link to the one before/,
      },
    ];
    const page = await standalonePage(browser);
    for (const c of cases) {
      const pdf = at(`tampered-${c.what.replace(/ /g, '-')}.pdf`);
      writeFileSync(pdf, c.pdf);
      const headers = c.headers === undefined ? at('headers.txt') : at('tampered-headers.txt');
      await t.test(`${c.what}: proofseal verify refuses it`, async () => {
        if (c.headers !== undefined) writeFileSync(headers, c.headers());
        if (c.headers === undefined)
          assert.match(
            tool('pdfsig', [pdf]).out,
            /Digest Mismatch/,
            'the byte is inside what the PDF signature covers',
          );
        const r = await offline(['verify', pdf, '--headers', headers]);
        assert.equal(r.code, c.code, said(r));
        assert.match(`${r.stdout}${r.stderr}`, c.message, said(r));
      });
      await t.test(`${c.what}: the standalone page refuses it`, async () => {
        // A changed byte is refused with no header source; a changed header needs the file given.
        const shown = await verifyOnPage(page, pdf, c.headers === undefined ? undefined : headers);
        assert.ok(shown.classes.includes('fail'), `verdict ${shown.classes.join(' ')}: ${shown.text}`);
      });
    }
    await page.close();
  });
}

interface Tampered {
  readonly what: string;
  readonly pdf: Buffer;
  /** The headers file's text when it is what changed. */
  readonly headers?: () => string;
  readonly code: number;
  readonly message: RegExp;
}

interface Receipt {
  anchors: { sourceId: string }[];
}

/** The link of a signer's invitation (`to`: hers), from the mails the service kept (`proofseal outbox mail`). */
export async function invitationLink(service: RunningService, id: string, to = 'ann@example.com'): Promise<string> {
  type Row = { id: string; requestId: string; type: string; to: { address: string } };
  const invitation = await until(
    `the invitation to ${to} in the outbox`,
    async () => {
      const listed = await service.cli(['outbox', 'mail', '--json']);
      assert.equal(listed.code, 0, said(listed, service));
      const rows = JSON.parse(listed.stdout) as Row[];
      const mine = (m: Row) => m.requestId === id && m.type === 'signatureRequestSigneeEmail' && m.to.address === to;
      return rows.find(mine) ?? null;
    },
    60_000,
    service.output,
  );
  const mail = await service.cli(['outbox', 'mail', invitation.id]);
  const link = /(http:\/\/(?:localhost|127\.0\.0\.1):\d+\/sign\?signatureRequestURL=\S+)/.exec(mail.stdout)?.[1];
  assert.ok(link, `the signing link in the mail:\n${mail.stdout}`);
  return link;
}

/** The headers file with the line of `height` replaced by the header of the block after it. */
function headersWithLineChanged(file: string, height: number): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith(`${height} `));
  const next = lines.find((l) => l.startsWith(`${height + 1} `));
  assert.ok(at >= 0 && next, `the headers file has the anchoring block ${height} and the one after it`);
  lines[at] = `${height} ${next.split(' ')[1]}`;
  return lines.join('\n');
}

async function standalonePage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`file://${STANDALONE_PAGE}`);
  await page.locator('form[data-ready="true"]').waitFor();
  return page;
}

/**
 * The standalone page given the signed copy as the document and, when given, the headers file (its header
 * source; else none): the verdict's classes and text, and the whole result.
 */
async function verifyOnPage(
  page: Page,
  pdf: string,
  headers?: string,
): Promise<{ classes: string[]; text: string; details: string }> {
  await page.setInputFiles('#file', pdf);
  const headersInput = page.locator('input[type="file"][id*="header" i]');
  if (headers !== undefined) {
    assert.equal(await headersInput.count(), 1, 'the standalone page takes a headers file (issue 31 §2, §3)');
    await headersInput.setInputFiles(headers);
  } else if ((await headersInput.count()) === 1) await headersInput.setInputFiles([]);
  await page.locator('#verify-button').click();
  await page.locator('#result').waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('#verify-button:not([disabled])').waitFor();
  const verdict = page.locator('#verdict');
  return {
    classes: ((await verdict.getAttribute('class')) ?? '').split(/\s+/),
    text: await verdict.innerText(),
    details: await page.locator('#result').innerText(),
  };
}
