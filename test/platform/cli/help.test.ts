/**
 * `--help` (or `-h`) after any command prints that command's usage and exits 0, without loading settings or
 * starting anything; `--help` after `--` is an argument like any other, and an unknown command's help is the
 * whole usage.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { run, usageOf } from '../../../src/main.js';

async function printed(argv: string[]): Promise<string> {
  const lines: string[] = [];
  await run(argv, (line) => lines.push(line));
  return lines.join('\n');
}

describe('proofseal <command> --help', () => {
  it("prints the command's own lines, with the client options for a client command", async () => {
    const verify = await printed(['verify', '--help']);
    assert.match(verify, /^usage: proofseal verify/);
    assert.match(verify, /verify <file> <proof-bundle\.json \| PDF carrying it> --headers FILE/);
    assert.match(verify, /\(attestation\.pdf, a signed copy\)/, 'a PDF as the second file');
    assert.match(verify, /verify <signed-copy\.pdf> --headers FILE \| --rpc-url URL \| --explorer URL/);
    assert.match(verify, /a signed copy alone/);
    assert.match(verify, /client options: --api-url/);
    assert.doesNotMatch(verify, /\bseal <file>|start \[--role/);
    assert.equal(await printed(['seal', '-h']), usageOf('seal'));
    assert.match(usageOf('seal'), /seal <file> \[--private\]/);
  });

  it('keeps the continuation lines of an operator command, and gives no client options to it', async () => {
    const start = await printed(['start', '--role', 'api', '--help']);
    assert.match(start, /start \[--role api\|worker\|all\|identity\]/);
    assert.match(start, /\[--processes N\]/);
    assert.doesNotMatch(start, /client options/);
    assert.match(await printed(['wallet', '--help']), /the worker finds deposits in new blocks/);
  });

  it('an unknown command gets the whole usage; --help after -- is not help', async () => {
    const whole = await printed(['--help']);
    assert.equal(usageOf('no-such-command'), whole);
    assert.match(whole, /^usage: proofseal <command>/);
    // After `--`, "--help" is the file to verify: read (and not found), no usage printed.
    const lines: string[] = [];
    await assert.rejects(
      run(['verify', '--', '--help'], (line) => lines.push(line)),
      /ENOENT|no such file|--help/,
    );
    assert.deepEqual(lines, []);
  });
});
