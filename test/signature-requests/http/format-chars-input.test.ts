// tier: slow (measured: 11.8 s in a full CI run, over the 10 s bound of the fast tier)
/**
 * Names taken in without their invisible format characters (issue 32, row 11), on both stores: the request's
 * name and file name and each signer's name at creation and at PUT of a DRAFT; a name of nothing else is
 * 400 VALIDATION_FAILED, a file name of nothing else is no file name.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { storeKinds } from '../../support/stores.js';
import { getRequest, openBench, requestBody, signer, type Bench } from '../fixture.js';

const kinds = await storeKinds();

for (const kind of kinds) {
  describe(`names without invisible format characters on ${kind.name}`, { skip: kind.skip }, () => {
    let b: Bench;
    before(async () => {
      b = await openBench(kind);
    });
    after(async () => b?.close());

    const send = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
      b.app.inject({ method, url, headers: b.auth, payload });

    it('creation and PUT keep the names without bidi controls and zero-width characters', async () => {
      const hostile = {
        name: '\u202Bcontract\u202C of\u200B the flat',
        fileName: 'invoice\u202Efdp.exe',
        authorizedSignees: [{ ...signer(1), commonName: '\u2066Ann\u2069 Lee\uFEFF' }, signer(2)],
      };
      const created = await send('POST', '/v1/signatureRequest', requestBody({ ...hostile, state: 'DRAFT' }));
      assert.equal(created.statusCode, 200, created.body);
      const id = created.json<{ id: string }>().id;
      const view = await getRequest(b, id);
      assert.deepEqual(
        [view.name, view.fileName, view.authorizedSignees[0].commonName],
        ['contract of the flat', 'invoicefdp.exe', 'Ann Lee'],
      );
      const put = await send('PUT', `/v1/signatureRequest/${id}`, requestBody({ ...hostile, fileName: 'a\u200F.pdf' }));
      assert.equal(put.statusCode, 200, put.body);
      assert.equal((await getRequest(b, id)).fileName, 'a.pdf');
      const zeroWidth = await send('POST', '/v1/signatureRequest', requestBody({ fileName: '\u200B\u202E' }));
      assert.equal(zeroWidth.statusCode, 200, zeroWidth.body);
      assert.equal((await getRequest(b, zeroWidth.json<{ id: string }>().id)).fileName, undefined);
    });

    it('a name or a signer name of invisible characters only is 400 VALIDATION_FAILED', async () => {
      const invisibleName = await send('POST', '/v1/signatureRequest', requestBody({ name: '\u202E\u200B' }));
      assert.deepEqual([invisibleName.statusCode, invisibleName.json().code], [400, 'VALIDATION_FAILED']);
      assert.match(invisibleName.json().message, /"name" holds no visible character/);
      const invisibleSigner = await send(
        'POST',
        '/v1/signatureRequest',
        requestBody({ authorizedSignees: [signer(1), { ...signer(2), commonName: '\u2066\u2069' }] }),
      );
      assert.deepEqual([invisibleSigner.statusCode, invisibleSigner.json().code], [400, 'VALIDATION_FAILED']);
      assert.match(invisibleSigner.json().message, /authorizedSignees\[1\]\.commonName/);
    });
  });
}
