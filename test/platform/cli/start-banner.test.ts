/**
 * The box the default run prints last when it serves (src/cli/start-banner.ts): the addresses, `/v1/docs`, `/verify`
 * and `outbox mail` every time; the credentials and the file keeping them on the first start only. That the real
 * `npm start` prints it last on a terminal: test/platform/e2e/first-run.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boxed, startBanner } from '../../../src/cli/start-banner.js';

const credentials = {
  apiUrl: 'http://localhost:3000',
  identityUrl: 'http://localhost:3001',
  login: 'local@proofseal.localhost',
  password: 'pw-7Hk2sQ',
  apiToken: 'ps_api',
  identityToken: 'ps_identity',
  identityPubKey: '1Key',
  created: 0,
};
const urls = { apiUrl: 'http://localhost:3000', identityUrl: 'http://localhost:3001' };

/** Every line of a box has the same width on a terminal (composed characters counted once): the text inside. */
function unbox(box: string): string[] {
  const lines = box.split('\n');
  const widths = new Set(lines.map((l) => [...l.normalize('NFC')].length));
  assert.equal(widths.size, 1, `a straight frame:\n${box}`);
  assert.match(lines[0]!, /^┌─+┐$/);
  assert.match(lines.at(-1)!, /^└─+┘$/);
  return lines.slice(1, -1).map((l) => l.replace(/^│ /, '').replace(/ *│$/, ''));
}

describe('the start banner', () => {
  it('first start: the addresses, then the credentials and the file that keeps them', () => {
    const file = '/srv/proofseal/data/credentials.json';
    const lines = unbox(startBanner({ ...urls, credentialsFile: file, firstStart: { credentials, savedTo: file } }));
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    for (const row of [
      'API                 http://localhost:3000',
      'API docs            http://localhost:3000/v1/docs',
      'verify a file       http://localhost:3000/verify',
      'identity server     http://localhost:3001',
      'mails it sent       npx proofseal outbox mail',
      'password            pw-7Hk2sQ',
      'API token           ps_api',
      'identity API token  ps_identity',
      `kept in             ${file} (readable by you only)`,
    ])
      assert.ok(at(row) >= 0, `"${row}" in:\n${lines.join('\n')}`);
    assert.ok(at('verify a file') < at('password'), 'the addresses first, the credentials below');
  });

  it('a later start names the file, never a secret; without the file, no credentials line', () => {
    const later = startBanner({ ...urls, credentialsFile: '/d/credentials.json' });
    assert.ok(unbox(later).includes('credentials         /d/credentials.json'));
    assert.doesNotMatch(later, /pw-7Hk2sQ|ps_api|password/);
    assert.doesNotMatch(startBanner({ ...urls, credentialsFile: null }), /credentials/);
  });

  it('a first start whose DATA_DIR is not writable says the printed copy is the only one', () => {
    const lines = unbox(startBanner({ ...urls, credentialsFile: null, firstStart: { credentials, savedTo: null } }));
    assert.ok(lines.some((l) => /^kept in +nowhere \(DATA_DIR is not writable\): keep them now$/.test(l)));
  });

  it('the frame fits text of several code points per character (a path with a combining accent)', () => {
    const lines = ['dossier', '/home/zoe\u0308/donne\u0301es'];
    assert.deepEqual(
      unbox(boxed(lines)).map((l) => l.trimEnd()),
      lines,
    );
  });
});
