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
) => `<section id="file" class="card" aria-labelledby="file-heading" hidden>
  <h2 id="file-heading">${m('fileHeading')}</h2>
  <p id="file-download" hidden><a id="file-link" href="#" rel="noopener noreferrer" target="_blank">${m('fileDownload')}</a></p>
  <p id="file-none" hidden>${m('fileNone')}</p>
  <div class="field">
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
    <p>${m('otpIntro')}</p>
    <button id="otp-send" type="button" class="secondary">${m('otpSend')}</button>
    <p id="otp-status" role="status" aria-live="polite"></p>
    <div class="field">
      <label for="otp-code">${m('otpLabel')}</label>
      <input id="otp-code" name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="16" aria-describedby="otp-hint sign-error">
      <p id="otp-hint" class="hint">${m('otpHint')}</p>
    </div>
  </div>
  <p>${m('signIntro')}</p>
  <p id="sign-error" class="warn" role="alert"></p>
  <button id="sign-button" type="submit">${m('signButton')}</button>
</form>`;

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

/** The signature page in `lang`; `keepQuery` holds the `signatureRequestURL` the language links keep. */
export function renderSignPage(lang: Lang, assets: PageAssets, keepQuery: Record<string, string>): string {
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
${fileSection(m)}
${signForm(m)}
<section id="done" class="card" aria-labelledby="done-heading" hidden>
  <h2 id="done-heading" tabindex="-1">${m('doneHeading')}</h2>
  <p id="done-text" role="status"></p>
  <p id="redirect" hidden>${m('redirectText')} <a id="redirect-link" href="#">${m('redirectLink')}</a></p>
</section>
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
