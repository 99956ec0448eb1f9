/** The frame every page shares: landmarks, skip link, language switch, stylesheet and page script. */
import { esc } from '../html.js';
import { LANGS, t, type Lang } from '../i18n.js';

/** URLs of the bundled assets a page links to (content-hashed, served under /assets/). */
export interface PageAssets {
  readonly script: string;
  readonly style: string;
}

export interface LayoutInput {
  readonly lang: Lang;
  readonly title: string;
  /** The page's path, for the language links. */
  readonly path: string;
  readonly assets: PageAssets;
  /** The main content, already escaped HTML. */
  readonly main: string;
  /** Text of the skip link (default: the verification page's). */
  readonly skip?: string;
  /** Query parameters the language links keep (e.g. the signature page's `signatureRequestURL`). */
  readonly keepQuery?: Readonly<Record<string, string>>;
  /** `data-*` attributes of `<main>`: settings the page script reads (values escaped here). */
  readonly mainData?: Readonly<Record<string, string>>;
  /**
   * A page that carries its script and stylesheet inline (the standalone verification file, opened from
   * disk): its own CSP in a `<meta>`, with the hashes of exactly these two, and the language links given.
   */
  readonly inline?: {
    readonly script: string;
    readonly style: string;
    readonly csp: string;
    readonly langHrefs: Readonly<Record<Lang, string>>;
  };
}

function langHref(input: LayoutInput, l: Lang): string {
  if (input.inline) return input.inline.langHrefs[l];
  const query = new URLSearchParams({ ...input.keepQuery, lang: l });
  return `${input.path}?${query.toString()}`;
}

/** A complete HTML document: no inline script or style (but the standalone file's, under its own hashes), so the strict CSP holds. */
export function renderLayout(input: LayoutInput): string {
  const { lang } = input;
  const langLinks = LANGS.map((l) =>
    l === lang
      ? `<li><a href="${esc(langHref(input, l))}" aria-current="true" lang="${l}">${l.toUpperCase()}</a></li>`
      : `<li><a href="${esc(langHref(input, l))}" lang="${l}" hreflang="${l}">${l.toUpperCase()}</a></li>`,
  ).join('');
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(input.title)} · ${esc(t(lang, 'serviceName'))}</title>
${assetTags(input)}
</head>
<body>
<a class="skip" href="#main">${esc(input.skip ?? t(lang, 'skip'))}</a>
<header class="banner"><p class="brand">${esc(t(lang, 'serviceName'))}</p>
<nav aria-label="${esc(t(lang, 'languageNav'))}"><ul class="langs">${langLinks}</ul></nav></header>
<main id="main" tabindex="-1"${mainData(input)}>
${input.main}
</main>
</body>
</html>
`;
}

function assetTags(input: LayoutInput): string {
  const { inline, assets } = input;
  if (!inline)
    return `<link rel="icon" href="/favicon.ico" type="image/x-icon">
<link rel="stylesheet" href="${esc(assets.style)}">
<script type="module" src="${esc(assets.script)}"></script>`;
  // Raw text elements: only a closing tag could end them early, and the bundle never holds one.
  if (/<\/(style|script)/i.test(inline.style + inline.script)) throw new Error('an inline asset holds a closing tag');
  return `<meta http-equiv="Content-Security-Policy" content="${esc(inline.csp)}">
<style>${inline.style}</style>
<script type="module">${inline.script}</script>`;
}

function mainData(input: LayoutInput): string {
  return Object.entries(input.mainData ?? {})
    .map(([k, v]) => ` data-${k.replace(/[^a-z-]/g, '')}="${esc(v)}"`)
    .join('');
}
