// tier: slow (a spawned process running a Bitcoin node)
/**
 * The embedded regtest node writes nothing on stderr: an operator's error stays the one line the service
 * prints. bcoin's bfile 0.1 read `fs.F_OK` at load, which Node 24 deprecates at run time (DEP0176), so every
 * process that started the node printed a warning there; package.json overrides bfile to 0.2.3, which reads
 * `fs.constants`. The node here also runs on a directory, created, closed and reopened through bfile's
 * `mkdirp` and `readFile`/`writeFile`, the functions of bfile that bcoin uses.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MODULE = path.join(ROOT, 'src/adapters/chain/embedded-regtest.ts');

describe('the embedded regtest node on this node version', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'proofseal-node-stderr-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('starts on a new directory, mines, stops and reopens it, with nothing on stderr', () => {
    const script = `
      const { EmbeddedRegtest } = await import(${JSON.stringify(MODULE)});
      const chainDir = ${JSON.stringify(path.join(dir, 'regtest', 'regtest'))};
      let node = await EmbeddedRegtest.start({ activateSegwit: false, dir: chainDir });
      await node.mine(2);
      await node.stop();
      node = await EmbeddedRegtest.start({ activateSegwit: false, dir: chainDir });
      console.log('height after reopening: ' + (await node.rpc.getBlockCount()));
      await node.stop();`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^height after reopening: 2$/m);
    assert.equal(run.stderr, '', `node ${process.version} wrote on stderr`);
  });
});
