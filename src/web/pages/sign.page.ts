/**
 * GET /sign: the default signature page (the default `signingURL`). The HTML is the same for every
 * request: the browser part (src/web/browser/sign-page.ts) reads `signatureRequestURL` from the query,
 * fetches the signer's view from this origin and fills the sections in.
 */
import { esc } from '../html.js';
import type { Lang } from '../i18n.js';
import { st, type SigningKey } from '../i18n-signing.js';
import { renderLayout, type PageAssets } from './layout.js';

const facts = (m: (k: SigningKey) => string) => `<dl class="facts">
    <dt>${m('requestedBy')}</dt><dd id="requester"></dd>
    <dt>${m('documentLabel')}</dt><dd id="document"></dd>
    <dt>${m('hashLabel')}</dt><dd><code id="hash"></code></dd>
    <dt class="deadline" hidden>${m('deadlineLabel')}</dt><dd id="deadline" class="deadline" hidden></dd>
  </dl>
  <h2 id="signers-heading">${m('signersHeading')}</h2>
  <ul id="signers" class="signers" aria-labelledby="signers-heading"></ul>`;

const fileSection = (
  m: (k: SigningKey) => string,
  pdfWorker: string,
) => `<section id="file" class="card" aria-labelledby="file-heading" hidden>
  <h2 id="file-heading">${m('fileHeading')}</h2>
  <p id="doc-loading" role="status" hidden>${m('docLoading')}</p>
  <p id="doc-check" role="status" aria-live="polite" hidden></p>
  <div id="viewer" data-worker="${esc(pdfWorker)}" hidden>
    <div class="pdf-tools" role="toolbar" aria-label="${m('zoomLabel')}" aria-controls="pages">
      <button id="zoom-out" type="button" class="secondary" aria-label="${m('zoomOut')}">−</button>
      <output id="zoom-level" aria-live="polite">100 %</output>
      <button id="zoom-in" type="button" class="secondary" aria-label="${m('zoomIn')}">+</button>
      <button id="zoom-fit" type="button" class="secondary">${m('zoomFit')}</button>
      <span id="page-count"></span>
    </div>
    <div id="pages" class="pdf-pages" tabindex="0" role="region" aria-label="${m('pagesLabel')}"></div>
  </div>
  <p id="doc-problem" class="warn" hidden></p>
  <p id="doc-download" hidden><a id="doc-link" href="#" download>${m('docDownload')}</a></p>
  <p id="file-download" hidden><a id="file-link" href="#" rel="noopener noreferrer" target="_blank">${m('fileDownload')}</a></p>
  <p id="file-none" hidden>${m('fileNone')}</p>
  <div id="file-check-field" class="field" hidden>
    <label for="file-check">${m('fileCheckLabel')}</label>
    <input id="file-check" type="file" aria-describedby="file-check-hint">
    <p id="file-check-hint" class="hint">${m('fileCheckHint')}</p>
  </div>
  <p id="file-result" role="status" aria-live="polite"></p>
</section>`;

const signForm = (
  m: (k: SigningKey) => string,
) => `<form id="sign-form" class="card" aria-labelledby="sign-heading" novalidate hidden>
  <h2 id="sign-heading">${m('signHeading')}</h2>
  <div id="otp" hidden>
    <p id="otp-intro">${m('otpIntro')}</p>
    <button id="otp-send" type="button" class="secondary">${m('otpSend')}</button>
    <p id="otp-status" role="status" aria-live="polite"></p>
    <div class="field">
      <label for="otp-code">${m('otpLabel')}</label>
      <input id="otp-code" name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="16" aria-describedby="otp-hint sign-error">
      <p id="otp-hint" class="hint">${m('otpHint')}</p>
    </div>
  </div>
  <p id="sign-intro">${m('signIntro')}</p>
  <div id="ack-field" class="field check" hidden>
    <input id="ack" type="checkbox" aria-describedby="ack-hint">
    <label for="ack">${m('ackLabel')}</label>
    <p id="ack-hint" class="hint">${m('ackHint')}</p>
  </div>
  <p id="sign-error" class="warn" role="alert"></p>
  <button id="sign-button" type="submit">${m('signButton')}</button>
</form>`;

const decline = (m: (k: SigningKey) => string) => `<details id="decline" class="card" hidden>
  <summary>${m('declineHeading')}</summary>
  <form id="decline-form" novalidate>
    <p>${m('declineIntro')}</p>
    <div class="field"><label for="decline-reason">${m('declineReasonLabel')}</label>
      <textarea id="decline-reason" name="reason" maxlength="2000" rows="3"></textarea></div>
    <button id="decline-button" type="submit" class="secondary">${m('declineButton')}</button>
    <p id="decline-status" role="status" aria-live="polite"></p>
  </form>
</details>`;

const feedback = (m: (k: SigningKey) => string) => `<details id="feedback" class="card" hidden>
  <summary>${m('feedbackHeading')}</summary>
  <form id="feedback-form" novalidate>
    <p>${m('feedbackIntro')}</p>
    <div class="field"><label for="feedback-subject">${m('subjectLabel')}</label>
      <input id="feedback-subject" name="subject" maxlength="256" autocomplete="off"></div>
    <div class="field"><label for="feedback-message">${m('messageLabel')}</label>
      <textarea id="feedback-message" name="message" maxlength="4096" rows="4"></textarea></div>
    <button id="feedback-button" type="submit" class="secondary">${m('feedbackSend')}</button>
    <p id="feedback-status" role="status" aria-live="polite"></p>
  </form>
</details>`;

/**
 * The signature page in `lang`; `keepQuery` holds the `signatureRequestURL` the language links keep;
 * `pdfWorker` is the URL of the bundled PDF.js worker (empty: PDFs are offered as downloads only).
 */
export function renderSignPage(
  lang: Lang,
  assets: PageAssets,
  keepQuery: Record<string, string>,
  pdfWorker = '',
): string {
  const m = (key: SigningKey) => esc(st(lang, key));
  const main = `<h1 id="title" tabindex="-1">${m('signTitle')}</h1>
<p id="loading" role="status">${m('loading')}</p>
<noscript><p class="warn">${m('noScript')}</p></noscript>
<section id="failure" class="card failure" aria-labelledby="failure-heading" hidden>
  <h2 id="failure-heading" tabindex="-1">${m('errorHeading')}</h2>
  <p id="failure-text"></p>
  <p id="failure-retry" hidden><a id="retry-link" href="/sign">${m('retry')}</a></p>
</section>
<section id="request" class="card" aria-labelledby="title" hidden>
  ${facts(m)}
</section>
<section id="done" class="card done" aria-labelledby="done-heading" hidden>
  <h2 id="done-heading" tabindex="-1">${m('doneHeading')}</h2>
  <p id="done-text" role="status"></p>
  <ul id="done-links" class="links">
    <li id="done-doc" hidden><a id="done-doc-link" href="#" download>${m('doneDocLink')}</a></li>
    <li id="done-proofs" hidden><a id="proofs-link" href="#" download>${m('proofsLink')}</a>
      · <a href="/verify">${m('verifyLink')}</a></li>
    <li id="done-proofs-later" hidden>${m('proofsLater')}</li>
  </ul>
  <p id="redirect" hidden>${m('redirectText')} <a id="redirect-link" href="#">${m('redirectLink')}</a></p>
</section>
${fileSection(m, pdfWorker)}
${signForm(m)}
${decline(m)}
${feedback(m)}`;
  return renderLayout({
    lang,
    title: st(lang, 'signTitle'),
    path: '/sign',
    assets,
    main,
    skip: st(lang, 'signSkip'),
    keepQuery,
  });
}
