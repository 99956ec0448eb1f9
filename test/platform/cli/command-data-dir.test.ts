/**
 * The DATA_DIR of a command run from another folder (the `proofseal` command installed from the checkout): `./data`
 * when it is a proofseal data folder, else the checkout's `data` folder when that one is; a DATA_DIR that is set, and
 * `start`, are left alone. The whole path (installed, run elsewhere, against a started service): test/e2e/first-run.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commandDataDir } from '../../../src/main.js';

describe('the DATA_DIR of a command run outside the checkout', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'proofseal-data-dir-'));
  const checkout = path.join(scratch, 'checkout');
  const elsewhere = path.join(scratch, 'elsewhere');
  const cwd = process.cwd();
  /** The default setting (`./data`) as loadConfig resolves it, in the folder the command runs from. */
  const unset = () => ({ dataDir: path.resolve('data') });

  before(() => {
    mkdirSync(path.join(checkout, 'data'), { recursive: true });
    writeFileSync(path.join(checkout, 'data', 'credentials.json'), '{}');
    mkdirSync(elsewhere);
    process.chdir(elsewhere);
  });
  after(() => {
    process.chdir(cwd);
    rmSync(scratch, { recursive: true, force: true });
  });

  it("uses the checkout's data folder when the folder it runs in has none", () => {
    assert.equal(commandDataDir('seal', unset(), checkout), path.join(checkout, 'data'));
    assert.equal(commandDataDir('outbox', unset(), checkout), path.join(checkout, 'data'));
  });

  it('keeps ./data when it is a proofseal data folder, and a DATA_DIR that is set', () => {
    mkdirSync(path.join(elsewhere, 'data', 'pglite'), { recursive: true });
    try {
      assert.equal(commandDataDir('seal', unset(), checkout), path.join(elsewhere, 'data'));
    } finally {
      rmSync(path.join(elsewhere, 'data'), { recursive: true });
    }
    const set = { dataDir: path.join(scratch, 'chosen') };
    assert.equal(commandDataDir('seal', set, checkout), set.dataDir);
  });

  it("a folder named data that is not proofseal's does not count; start always makes ./data", () => {
    mkdirSync(path.join(elsewhere, 'data'));
    writeFileSync(path.join(elsewhere, 'data', 'measurements.csv'), '1,2\n');
    assert.equal(commandDataDir('request', unset(), checkout), path.join(checkout, 'data'));
    assert.equal(commandDataDir('start', unset(), checkout), path.join(elsewhere, 'data'));
  });

  it("keeps ./data when the checkout's data folder is not one either (a fresh checkout)", () => {
    const fresh = path.join(scratch, 'fresh');
    mkdirSync(fresh);
    assert.equal(commandDataDir('seal', unset(), fresh), path.resolve('data'));
  });
});
