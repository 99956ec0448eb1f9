// The custom signature page: exactly what the service-spec ("Custom signature page") asks of one.
// 1. read the signature request URL from this page's own query (under `signatureRequestURL`, the default
//    e-mail's name, or `srURL`, a name a custom e-mail template may choose);
// 2. take `signeeId` from that URL's query;
// 3. when the signer clicks, POST `<origin><path>/delegate` with the JSON `{"signeeId": …}`: 200 means signed.
// Reading the request first (GET of the same URL) is optional; it shows the signer what they sign.

const $ = (id) => document.getElementById(id);

function requestUrl() {
  const query = new URLSearchParams(location.search);
  const raw = query.get('signatureRequestURL') ?? query.get('srURL');
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

async function showRequest(url) {
  const res = await fetch(url, { referrerPolicy: 'no-referrer' });
  if (!res.ok) throw new Error(`this link does not work (HTTP ${res.status})`);
  const request = await res.json();
  $('title').textContent = request.name;
  $('facts').textContent = `Document fingerprint (SHA-256): ${request.hashToSign}`;
}

async function sign(url, signeeId) {
  const res = await fetch(`${url.origin}${url.pathname}/delegate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ signeeId }),
    referrerPolicy: 'no-referrer',
  });
  if (res.status === 200) return 'Signed. Thank you!';
  const body = await res.json().catch(() => ({}));
  return `Not signed: ${body.code ?? res.status} ${body.message ?? ''}`;
}

async function main() {
  const url = requestUrl();
  const signeeId = url?.searchParams.get('signeeId');
  if (!url || !signeeId) {
    $('facts').textContent = 'This link is incomplete: open the link of your e-mail again.';
    return;
  }
  await showRequest(url);
  const button = $('sign');
  button.hidden = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    $('result').textContent = await sign(url, signeeId);
  });
}

main()
  .catch((err) => {
    $('facts').textContent = err.message;
  })
  .finally(() => document.body.setAttribute('data-ready', 'true'));
