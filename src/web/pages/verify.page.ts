/** GET /verify: the public verification page (the browser part is src/web/browser/verify-page.ts). */
import { esc } from '../html.js';
import { t, type Lang } from '../i18n.js';
import { renderLayout, type LayoutInput, type PageAssets } from './layout.js';

export interface VerifyPageOptions {
  /** The block explorer (Esplora API base URL) the page may ask, also in the page's CSP connect-src. */
  readonly explorerUrl?: string;
  /** The standalone file: script and stylesheet inline, no server asked (see scripts/build-web.mjs). */
  readonly inline?: LayoutInput['inline'];
  /** The service's Bitcoin network, which decides the explorers the page links to (none for regtest). */
  readonly network?: string;
}

/** The verification page in `lang`. */
export function renderVerifyPage(lang: Lang, assets: PageAssets, opts: VerifyPageOptions = {}): string {
  const m = (key: Parameters<typeof t>[1]) => esc(t(lang, key));
  const main = `<h1>${m('verifyTitle')}</h1>
<p>${opts.inline ? m('standaloneIntro') : m('verifyIntro')}</p>
<noscript><p class="warn">${m('noScript')}</p></noscript>
<form id="verify-form" class="card" novalidate>
  <div class="field">
    <label for="file">${m('fileLabel')}</label>
    <input id="file" name="file" type="file" aria-describedby="file-hint">
    <p id="file-hint" class="hint">${m('fileHint')}</p>
  </div>
  <div class="field">
    <label for="receipt">${m('receiptLabel')}</label>
    <input id="receipt" name="receipt" type="file" accept="application/json,.json,application/pdf,.pdf" aria-describedby="receipt-hint">
    <p id="receipt-hint" class="hint">${m('receiptHint')}</p>
  </div>
  <div class="field">
    <label for="headers">${m('headersLabel')}</label>
    <input id="headers" name="headers" type="file" aria-describedby="headers-hint">
    <p id="headers-hint" class="hint">${m('headersHint')}</p>
  </div>
  <p class="hint">${m('dropHint')}</p>
  <button id="verify-button" type="submit">${m('submit')}</button>
</form>
<section id="result" class="card" aria-labelledby="result-heading" hidden>
  <h2 id="result-heading" tabindex="-1">${m('resultHeading')}</h2>
  <p id="verdict" class="verdict" role="status" aria-live="polite"></p>
  <ul id="notes" class="checks notes"></ul>
  <div id="cards" class="cards"></div>
  <div id="blocks" class="blocks"></div>
</section>`;
  const mainData: Record<string, string> = {};
  if (opts.explorerUrl) mainData.explorer = opts.explorerUrl;
  if (opts.inline) mainData.standalone = 'true';
  if (opts.network) mainData.network = opts.network;
  return renderLayout({
    lang,
    title: t(lang, 'verifyTitle'),
    path: '/verify',
    assets,
    main,
    mainData,
    ...(opts.inline ? { inline: opts.inline } : {}),
  });
}
