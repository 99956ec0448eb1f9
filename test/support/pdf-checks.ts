/**
 * Checking a signed PDF with outside tools (poppler's pdfsig, `openssl cms`/`openssl ts`, qpdf): a tool's run,
 * and a signature cut out of the PDF by its `/ByteRange` for openssl to read.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

/** Runs a tool (in `cwd` when given); its exit status and everything it printed. */
export function tool(cmd: string, args: string[], cwd?: string): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/**
 * The `index`th signature of a PDF (negative: from the end) as its `/ByteRange` says: the CMS (DER, padding
 * cut; a time-stamp token for a document time-stamp) and the bytes it signs.
 */
export function signatureAt(pdf: Buffer, index: number): { cms: Buffer; signed: Buffer; range: number[] } {
  const ranges = [...pdf.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const range = ranges.at(index)!.slice(1, 5).map(Number);
  const [a, b, c, d] = range as [number, number, number, number];
  const hex = Buffer.from(pdf.subarray(a + b + 1, c - 1).toString('latin1'), 'hex');
  assert.equal(hex[0], 0x30, 'the CMS is a DER SEQUENCE');
  assert.equal(hex[1], 0x82, 'with a two-byte length');
  const cms = hex.subarray(0, 4 + hex.readUInt16BE(2));
  return { cms, signed: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]), range };
}

/** `openssl ts -verify` of a time-stamp token (a DER file) over a data file, with the test TSA's CA and certificate. */
export function opensslTsVerify(
  dataFile: string,
  tokenFile: string,
  tsa: { readonly caFile: string; readonly tsaCertFile: string },
): { status: number | null; out: string } {
  const trust = ['-CAfile', tsa.caFile, '-untrusted', tsa.tsaCertFile];
  return tool('openssl', ['ts', '-verify', '-data', dataFile, '-in', tokenFile, '-token_in', ...trust]);
}

/** `openssl cms -verify` of a detached CMS (a DER file) over its content file, trusting `caFile`, for any purpose. */
export function opensslCmsVerify(
  cmsFile: string,
  contentFile: string,
  caFile: string,
): { status: number | null; out: string } {
  const cms = ['cms', '-verify', '-binary', '-inform', 'DER', '-in', cmsFile, '-content', contentFile];
  return tool('openssl', [...cms, '-CAfile', caFile, '-purpose', 'any', '-out', '/dev/null']);
}
