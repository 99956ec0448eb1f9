/**
 * GET /share/{id}/{token}: the sharing page. The HTML is a frame; the browser part
 * (src/web/browser/share-page.ts) fetches the request through the sharing API of this origin, follows its
 * state, and verifies the signatures with the bundled core code.
 */
import { esc } from '../html.js';
import { t, type Lang } from '../i18n.js';
import { st, type SigningKey } from '../i18n-signing.js';
import { renderLayout, type PageAssets } from './layout.js';

/**
 * Why a sharing link leads nowhere, known before any script runs: `badLink` (not the shape of a sharing link:
 * not a request id, or a code of the wrong form) or `notFound` (well formed, but no request has that id and code).
 */
export type ShareFailure = 'badLink' | 'notFound';

/**
 * The sharing page of one request in `lang`. With `failure`, the page says what is wrong and what to do
 * (the script then asks nothing); otherwise its script fills the request in.
 */
export function renderSharePage(
  lang: Lang,
  assets: PageAssets,
  path: string,
  network?: string,
  failure?: ShareFailure,
): string {
  const m = (key: SigningKey) => esc(st(lang, key));
  const failureText = failure === undefined ? '' : m(failure === 'badLink' ? 'shareBadLink' : 'shareNotFound');
  const main = `<h1 id="title">${m('shareTitle')}</h1>
<p>${m('shareIntro')}</p>
<p id="loading" role="status"${failure === undefined ? '' : ' hidden'}>${m('loading')}</p>
<section id="failure" class="card failure" aria-labelledby="failure-heading"${failure === undefined ? ' hidden' : ' data-failure="' + failure + '"'}>
  <h2 id="failure-heading" tabindex="-1">${m('shareErrorHeading')}</h2>
  <p id="failure-text">${failureText}</p>
</section>
<section id="request" class="card" aria-labelledby="title" hidden>
  <dl class="facts">
    <dt>${m('stateLabel')}</dt><dd id="state" data-state=""></dd>
    <dd id="state-note" class="state-note" hidden></dd>
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
