/**
 * Invisible format characters (Unicode category Cf) taken out of names people read: the bidi controls that
 * make `invoice\u202Efdp.exe` show as "invoiceexe.pdf" (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C),
 * zero-width spaces (U+200B, U+2060, U+FEFF), soft hyphens, invisible operators and tag characters. The two
 * joiners (U+200C ZWNJ, U+200D ZWJ) stay where they join: between two letters, marks or pictographs, as in
 * Persian or Indic words and in emoji sequences (👩‍💻); anywhere else they go too.
 */
const JOINABLE = String.raw`[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}]`;
const FORMAT_CHARS = new RegExp(
  String.raw`(?<!${JOINABLE})[\u200C\u200D]|[\u200C\u200D](?!${JOINABLE})|(?![\u200C\u200D])\p{Cf}`,
  'gu',
);

/** `text` without its invisible format characters (joiners kept between what they join). */
export function withoutFormatChars(text: string): string {
  return text.replace(FORMAT_CHARS, '');
}
