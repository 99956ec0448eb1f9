// tier: slow (spawned processes, Chromium)
/**
 * The README's new-user path, exactly as written there, against the default run (`proofseal start`): create a
 * request from a PDF with the CLI, the signer reads and signs it in a browser (Debian's chromium driven by
 * playwright-core) from the link of her invitation, the owner saves the signed copy with the CLI, and the
 * verification page checks that one file alone. Tools we did not write agree: `pdfsig` (the signature covers
 * the whole file) and `pdfdetach` (the bundle is attached).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import type { Browser } from 'playwright-core';
import { chromiumSkip, launchChromium } from '../../support/chromium.js';
import { cli, startDefaultRun, type DefaultRun } from '../../support/default-run.js';

const skip = chromiumSkip();

async function until<T>(what: string, probe: () => Promise<T | null>, ms: number, log: () => string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== null) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n--- server:\n${log()}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

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

describe('the new-user path of the README', { skip }, () => {
  let run: DefaultRun;
  let browser: Browser;

  before(async () => {
    // What `npm start` does first (its prestart): the pages' browser bundle into dist/web-bundle.
    const built = spawnSync(process.execPath, ['scripts/build-web.mjs'], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
    run = await startDefaultRun({ BATCH_INTERVAL_SECONDS: '2', REGTEST_BLOCK_INTERVAL_SECONDS: '1' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await run?.stop();
  });

  it('create from a PDF, sign in a browser, save the signed copy, verify it alone on /verify', async () => {
    const { env, dataDir } = run;
    const contract = path.join(dataDir, 'contract.pdf');
    writeFileSync(contract, await contractPdf());

    // 1. npx proofseal request create contract.pdf --signer "Ann Lee <ann@example.com>"
    const created = await cli(['request', 'create', contract, '--signer', 'Ann Lee <ann@example.com>', '--json'], env);
    assert.equal(created.code, 0, `${created.stderr}\n--- server:\n${run.output()}`);
    const id = JSON.parse(created.stdout).id as string;

    // 2. npx proofseal outbox mail (then `outbox mail <id>`): Ann's invitation and its link.
    type Row = { id: string; requestId: string; type: string };
    const listed = JSON.parse((await cli(['outbox', 'mail', '--json'], env)).stdout) as Row[];
    const invitation = listed.find((m) => m.requestId === id && m.type === 'signatureRequestSigneeEmail');
    assert.ok(invitation, 'the invitation is in the outbox');
    const mail = await cli(['outbox', 'mail', invitation.id], env);
    const link = /(http:\/\/localhost:\d+\/sign\?signatureRequestURL=\S+)/.exec(mail.stdout)?.[1];
    assert.ok(link, `the signing link in the mail:\n${mail.stdout}`);

    // 3. Ann opens it in a browser, reads, signs (the button is enabled once the document is shown).
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(link);
    await page.locator('#sign-button').click({ timeout: 60_000 });
    await page.locator('#done').waitFor({ state: 'visible', timeout: 60_000 });
    const shown = JSON.parse((await cli(['request', 'show', id, '--json'], env)).stdout);
    assert.equal(shown.state, 'COMPLETED');

    // 4. npx proofseal request signed-copy <id>  (once every proof is confirmed; until then it says so)
    const copy = path.join(dataDir, 'contract-signed.pdf');
    const saved = await until(
      'the signed copy',
      async () => {
        const r = await cli(['request', 'signed-copy', id, '-o', copy], env);
        if (r.code === 0) return r.stdout;
        assert.match(r.stdout, /not all confirmed yet/, r.stderr);
        return null;
      },
      240_000,
      run.output,
    );
    const original = readFileSync(contract);
    assert.match(saved, new RegExp(`its first ${original.length} bytes are the original`));
    const bytes = readFileSync(copy);
    assert.ok(bytes.subarray(0, original.length).equals(original));
    if (process.env.WEB_ARTIFACTS_DIR)
      copyFileSync(copy, path.join(process.env.WEB_ARTIFACTS_DIR, 'contract-signed.pdf'));
    const sig = spawnSync('pdfsig', [copy], { encoding: 'utf8' }).stdout;
    assert.match(sig, /Signature #1:[\s\S]*Total document signed[\s\S]*Signature is Valid\./);
    assert.match(spawnSync('pdfdetach', ['-list', copy], { encoding: 'utf8' }).stdout, /proof-bundle-.*\.json/);

    // 5. /verify with the signed copy alone.
    const verify = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await verify.goto(`${run.apiUrl}/verify`);
    await verify.locator('form[data-ready="true"]').waitFor();
    await verify.setInputFiles('#file', copy);
    await verify.locator('#verify-button').click();
    await verify.locator('#result').waitFor({ state: 'visible', timeout: 60_000 });
    await verify.locator('#verify-button:not([disabled])').waitFor();
    const verdict = verify.locator('#verdict');
    const text = await verdict.innerText();
    const classes = (await verdict.getAttribute('class')) ?? '';
    assert.ok(
      classes.split(/\s+/).includes('ok'),
      `verdict ${classes}: ${text}\n${await verify.locator('#result').innerText()}`,
    );
    assert.match(text, /Ann Lee/);
    const result = await verify.locator('#result').innerText();
    assert.ok(result.includes(createHashHex(original)), 'the page shows the hash of the original it found');

    // One byte of the original changed: the page rejects the copy.
    const tampered = Buffer.from(bytes);
    tampered[Math.floor(original.length / 2)] ^= 0x01;
    const bad = path.join(dataDir, 'tampered-signed.pdf');
    writeFileSync(bad, tampered);
    await verify.setInputFiles('#file', bad);
    await verify.locator('#verify-button').click();
    await verify.locator('#verdict.fail').waitFor({ timeout: 60_000 });
  });
});

function createHashHex(bytes: Buffer): string {
  return spawnSync('sha256sum', { input: bytes, encoding: 'utf8' }).stdout.split(' ')[0]!;
}
