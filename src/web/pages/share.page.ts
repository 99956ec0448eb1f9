/**
 * GET /share/{id}/{token}: the sharing page. The HTML is a frame; the browser part
 * (src/web/browser/share-page.ts) fetches the request through the sharing API of this origin, follows its
 * state, and verifies the signatures with the bundled core code.
 */
import { esc } from '../html.js';
import { t, type Lang } from '../i18n.js';
import { st, type SigningKey } from '../i18n-signing.js';
import { renderLayout, type PageAssets } from './layout.js';

/** The sharing page of one request in `lang` (the id and token are already checked). */
export function renderSharePage(lang: Lang, assets: PageAssets, path: string, network?: string): string {
  const m = (key: SigningKey) => esc(st(lang, key));
  const main = `<h1 id="title">${m('shareTitle')}</h1>
<p>${m('shareIntro')}</p>
<p id="loading" role="status">${m('loading')}</p>
<section id="failure" class="card failure" aria-labelledby="failure-heading" hidden>
  <h2 id="failure-heading" tabindex="-1">${m('errorHeading')}</h2>
  <p id="failure-text"></p>
</section>
<section id="request" class="card" aria-labelledby="title" hidden>
  <dl class="facts">
    <dt>${m('stateLabel')}</dt><dd id="state" data-state=""></dd>
    <dt>${m('requestedBy')}</dt><dd id="requester"></dd>
    <dt>${m('documentLabel')}</dt><dd id="document"></dd>
    <dt>${m('hashLabel')}</dt><dd><code id="hash"></code></dd>
  </dl>
  <h2 id="signers-heading">${m('signersHeading')}</h2>
  <ul id="signers" class="signers" aria-labelledby="signers-heading"></ul>
  <p id="updated" class="hint" aria-live="off"></p>
</section>
<section id="proofs" class="card" aria-labelledby="proofs-heading" hidden>
  <h2 id="proofs-heading">${m('proofsHeading')}</h2>
  <ul class="downloads">
    <li><a id="bundle-link" href="#" download>${m('downloadBundle')}</a></li>
    <li id="attestation-item"><a id="attestation-link" href="#" download>${m('downloadAttestation')}</a></li>
  </ul>
  <p id="attestation-later" class="hint" hidden>${m('attestationLater')}</p>
  <button id="verify-button" type="button">${m('verifyButton')}</button>
  <h3 id="result-heading" tabindex="-1" hidden>${esc(t(lang, 'resultHeading'))}</h3>
  <p id="verdict" class="verdict" role="status" aria-live="polite" hidden></p>
  <div id="cards" class="cards"></div>
  <div id="blocks" class="blocks"></div>
</section>`;
  const mainData = network === undefined ? {} : { mainData: { network } };
  return renderLayout({
    lang,
    title: st(lang, 'shareTitle'),
    path,
    assets,
    main,
    skip: st(lang, 'shareSkip'),
    ...mainData,
  });
}
