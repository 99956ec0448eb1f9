/**
 * The headers of a served document, built so that a hostile file name or type can do nothing: the name
 * is only ever written percent-encoded (RFC 6266 / RFC 8187 `filename*`) beside an ASCII fallback from
 * which quotes, backslashes, controls and path separators are gone; the type is a bare `type/subtype`
 * token or `application/octet-stream`; only a PDF is shown inline.
 */
import { withoutFormatChars } from '../text/format-chars.js';
import { truncateGraphemes } from '../text/graphemes.js';

/** Longest file name kept, in UTF-16 units (cut on a grapheme boundary). */
export const MAX_FILE_NAME = 255;
const FALLBACK_TYPE = 'application/octet-stream';
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * A file name fit to keep: no control characters, no invisible format characters (bidi overrides, zero-width
 * spaces: `withoutFormatChars`), no path, at most {@link MAX_FILE_NAME} units; null when nothing is left.
 */
export function cleanFileName(name: string | undefined | null): string | null {
  if (typeof name !== 'string') return null;
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = withoutFormatChars(base)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .trim();
  const kept = truncateGraphemes(clean, MAX_FILE_NAME);
  return kept === '' || kept === '.' || kept === '..' ? null : kept;
}

/** The media type of an upload: its `type/subtype` lower-cased without parameters, or application/octet-stream. */
export function cleanMediaType(contentType: string | undefined | null): string {
  const bare = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(bare) ? bare : FALLBACK_TYPE;
}

/** Percent-encodes everything but RFC 8187's attr-char. */
function encodeExtValue(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `Content-Disposition` for serving `fileName`: `inline` for a PDF, `attachment` otherwise; always both
 * the ASCII `filename` (anything else replaced by `_`) and the exact `filename*=UTF-8''…`.
 */
export function contentDisposition(fileName: string, mediaType: string): string {
  const name = cleanFileName(fileName) ?? 'document';
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const kind = mediaType === 'application/pdf' ? 'inline' : 'attachment';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(name)}`;
}

/** The bytes a `Range` header asks for, inclusive; `unsatisfiable` (416), or null to send the whole file. */
export type RangeAsked = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * One `bytes=` range of a `size`-byte file (`a-b`, `a-`, `-n`). Several ranges, other units and malformed
 * headers are ignored (the whole file is sent, as RFC 9110 allows); a range starting past the end is 416.
 */
export function rangeOf(header: string | undefined, size: number): RangeAsked {
  const m = /^bytes=(\d{0,15})-(\d{0,15})$/.exec((header ?? '').trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
