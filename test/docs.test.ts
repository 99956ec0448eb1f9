/** The documentation keeps up with the code: every error code is listed with its status. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { STATUS_OF } from '../src/http/error-codes.js';

describe('docs', () => {
  it('docs/errors.md lists every error code with its status, and no other', async () => {
    const doc = await readFile('docs/errors.md', 'utf8');
    const listed = new Map([...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
    for (const [code, status] of Object.entries(STATUS_OF))
      assert.equal(listed.get(code), status, `${code} should be listed with ${status}`);
    assert.deepEqual([...listed.keys()].sort(), Object.keys(STATUS_OF).sort());
  });
});
