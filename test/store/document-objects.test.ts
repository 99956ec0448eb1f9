/** The document store's contract, run on the store's own tables on both stores (an S3 adapter runs it too, later). */
import { after, before, describe } from 'node:test';
import { storeDocumentObjects } from '../../src/adapters/store/document.repository.js';
import type { DocumentObjectStore } from '../../src/app/signature-requests/document/document.port.js';
import { documentObjectContract } from '../support/document-object-contract.js';
import { storeKinds, type TestStore } from '../support/stores.js';

for (const kind of await storeKinds()) {
  describe(`document objects in the ${kind.name} store`, { skip: kind.skip }, () => {
    let s: TestStore;
    let objects: DocumentObjectStore;
    before(async () => {
      s = await kind.open();
      objects = storeDocumentObjects(s.db);
    });
    after(async () => s?.destroy());
    documentObjectContract(() => objects);
  });
}
