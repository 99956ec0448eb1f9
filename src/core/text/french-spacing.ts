/**
 * French typography: a no-break space (U+00A0, the one every text of the service uses: pages, mails,
 * attestation) before `:` `;` `?` `!` and `»`, and after `«`. The texts are written with plain spaces, for
 * readability, and made non-breaking once by this function. A mark followed by `=`, `$` or a letter is left
 * alone, so the operators of a mail template (`$a != ""`, `!$isRequester`) keep their plain spaces.
 */
export const FRENCH_SPACE = '\u00a0';

export function frenchSpacing(text: string): string {
  return text.replace(/ ([:;?!»])(?![=$\p{L}\d])/gu, `${FRENCH_SPACE}$1`).replace(/« /g, `«${FRENCH_SPACE}`);
}
