/**
 * Shortening text for people: a cut never falls inside a user-perceived character (a grapheme cluster:
 * a surrogate pair, a letter with its combining marks, an emoji sequence), so what is left is always
 * well-formed UTF-16 that PostgreSQL, a PDF font or an SMS gateway accepts.
 */
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The longest prefix of `text` made of whole graphemes and at most `maxUnits` UTF-16 code units (what
 * `String.length` counts), followed by `ellipsis` when something was cut (the ellipsis counts toward the limit).
 */
export function truncateGraphemes(text: string, maxUnits: number, ellipsis = ''): string {
  if (text.length <= maxUnits) return text;
  const room = Math.max(0, maxUnits - ellipsis.length);
  let end = 0;
  for (const { segment, index } of segmenter.segment(text)) {
    if (index + segment.length > room) break;
    end = index + segment.length;
  }
  return text.slice(0, end) + ellipsis;
}

/** How many graphemes (user-perceived characters) `text` holds. */
export function graphemeCount(text: string): number {
  return Array.from(segmenter.segment(text)).length;
}
