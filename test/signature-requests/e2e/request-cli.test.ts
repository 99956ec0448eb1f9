// tier: slow (spawned processes)
/**
 * `proofseal request` as a user runs it against the default run (`proofseal start`: embedded store,
 * regtest node, local credentials in DATA_DIR/credentials.json), each command a child process.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, startDefaultRun, type DefaultRun } from '../../support/default-run.js';

describe('proofseal request against the default run', () => {
  let run: DefaultRun;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let id: string;

  before(async () => {
    run = await startDefaultRun();
    ({ env, dataDir } = run);
  });

  after(() => run?.stop());

  it('create --draft (a signer with an SMS code), show, list, transition PENDING, a refused transition, proofs of an unsigned request', async () => {
    const doc = path.join(dataDir, 'contract.txt');
    writeFileSync(doc, `a contract ${randomBytes(16).toString('hex')}\n`);
    const signers = [
      '--signer',
      'Jane Doe <jane@example.com>',
      '--otp',
      '+33612345678',
      '--signer',
      'Bob <bob@example.com>',
    ];
    const created = await cli(['request', 'create', doc, ...signers, '--draft', '--json'], env);
    assert.equal(created.code, 0, `${created.stderr}\n--- server:\n${run.output()}`);
    const request = JSON.parse(created.stdout);
    id = request.id;
    assert.equal(request.state, 'DRAFT');
    assert.equal(request.authorizedSignees.length, 2);
    assert.equal(request.authorizedSignees[0].requiresOTP, true);

    const shown = await cli(['request', 'show', id], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /state {5}DRAFT/);
    assert.match(shown.stdout, /signer {4}Jane Doe <jane@example\.com> \(SMS code to \+33612345678\): not signed yet/);

    const listed = await cli(['request', 'list', '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      JSON.parse(listed.stdout).content.map((r: { id: string }) => r.id),
      [id],
    );

    const moved = await cli(['request', 'transition', id, 'PENDING'], env);
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, new RegExp(`^request ${id} is now (PENDING|IN_PROGRESS)`));

    const refused = await cli(['request', 'transition', id, 'DRAFT'], env);
    assert.equal(refused.code, 3, 'refused by a domain rule');
    assert.match(refused.stderr, /proofseal API: /);

    const bundleFile = path.join(dataDir, 'bundle.json');
    const proofs = await cli(['request', 'proofs', id, '--out', bundleFile, '--json'], env);
    assert.equal(proofs.code, 1, `nobody signed yet: the bundle is partial\n${proofs.stderr}`);
    const verdict = JSON.parse(proofs.stdout);
    assert.equal(verdict.verdict, 'NOT_VERIFIED');
    assert.equal(verdict.complete, false);
    assert.equal(JSON.parse(readFileSync(bundleFile, 'utf8')).complete, false);
  });

  it("a newcomer's whole request: create, read the invitation in the outbox, sign from its link, COMPLETED", async () => {
    const doc = path.join(dataDir, 'lease.txt');
    writeFileSync(doc, `a lease ${randomBytes(16).toString('hex')}\n`);
    const created = await cli(['request', 'create', doc, '--signer', 'Ann Lee <ann@example.com>', '--json'], env);
    assert.equal(created.code, 0, `${created.stderr}\n--- server:\n${run.output()}`);
    const requestId = JSON.parse(created.stdout).id as string;

    const listed = await cli(['outbox', 'mail', '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    type Row = { id: string; requestId: string; type: string; to: { address: string } };
    const invitation = (JSON.parse(listed.stdout) as Row[]).find(
      (m) => m.requestId === requestId && m.type === 'signatureRequestSigneeEmail',
    );
    assert.equal(invitation?.to.address, 'ann@example.com');
    const shown = await cli(['outbox', 'mail', invitation!.id], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Subject: .* invites you to sign "lease\.txt"/);
    const link = /(http:\/\/localhost:\d+\/sign\?signatureRequestURL=\S+)/.exec(shown.stdout)?.[1];
    assert.ok(link, `the signing link in the mail:\n${shown.stdout}`);

    const signed = await cli(['request', 'delegate', link], env);
    assert.equal(signed.code, 0, `${signed.stderr}\n--- server:\n${run.output()}`);
    assert.match(signed.stdout, new RegExp(`^signed: request ${requestId}, signature anchor [0-9a-f-]{36}`));
    const signeeId = new URL(new URL(link).searchParams.get('signatureRequestURL')!).searchParams.get('signeeId')!;
    assert.ok(!signed.stdout.includes(signeeId), 'the secret is not printed');
    const again = await cli(['request', 'delegate', link], env);
    assert.equal(again.code, 3, 'signing twice is refused');
    assert.match(again.stderr, /ALREADY_SIGNED|already signed/);

    const after = JSON.parse((await cli(['request', 'show', requestId, '--json'], env)).stdout);
    assert.equal(after.state, 'COMPLETED');
    assert.equal(after.isUploaded, true, 'create uploaded the file');
    const copy = path.join(dataDir, 'lease-copy.txt');
    const downloaded = await cli(['request', 'download', requestId, '-o', copy], env);
    assert.equal(downloaded.code, 0, downloaded.stderr);
    assert.match(downloaded.stdout, /equals the request's hashToSign/);
    assert.ok(readFileSync(copy).equals(readFileSync(doc)));
    assert.ok(after.authorizedSignees[0].signedOn > 0);
  });

  it('a decline as the requester sees it: request show says who declined, when, why and what to do; the mail says so', async () => {
    const doc = path.join(dataDir, 'quote.txt');
    writeFileSync(doc, `a quote ${randomBytes(16).toString('hex')}\n`);
    const signers = ['--signer', 'Dee Cline <dee@example.com>', '--signer', 'Sam Signer <sam@example.com>'];
    const created = await cli(['request', 'create', doc, ...signers, '--json'], env);
    assert.equal(created.code, 0, `${created.stderr}\n--- server:\n${run.output()}`);
    const requestId = JSON.parse(created.stdout).id as string;

    type Row = { id: string; requestId: string; type: string; subject: string; to: { address: string } };
    const outbox = async () => JSON.parse((await cli(['outbox', 'mail', '--json'], env)).stdout) as Row[];
    const invitation = (await outbox()).find(
      (m) =>
        m.requestId === requestId && m.type === 'signatureRequestSigneeEmail' && m.to.address === 'dee@example.com',
    );
    const mail = (await cli(['outbox', 'mail', invitation!.id], env)).stdout;
    const link = /(http:\/\/localhost:\d+\/sign\?signatureRequestURL=\S+)/.exec(mail)![1]!;
    const requestUrl = new URL(new URL(link).searchParams.get('signatureRequestURL')!);
    const signeeId = requestUrl.searchParams.get('signeeId')!;
    // What the signing page's "Decline" button sends.
    const reason = 'The price on page 2 is wrong';
    const declined = await fetch(`${requestUrl.origin}${requestUrl.pathname}/event`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signeeId, type: 'SIGN_REFUSED', comment: reason }),
    });
    assert.equal(declined.status, 200, await declined.text());

    const shown = await cli(['request', 'show', requestId], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /state {5}IN_PROGRESS/);
    assert.match(
      shown.stdout,
      /signer {4}Dee Cline <dee@example\.com>: DECLINED \d{4}-\d\d-\d\dT[\d:.]+Z \(reason: "The price on page 2 is wrong"\)/,
    );
    assert.match(shown.stdout, /signer {4}Sam Signer <sam@example\.com>: not signed yet/);
    assert.match(shown.stdout, /sharing {3}http:\/\/localhost:\d+\/share\/[0-9a-f-]{36}\/\S+/);
    assert.match(shown.stdout, /next {6}Dee Cline declined: the request stays open and cannot complete/);
    assert.ok(shown.stdout.includes(`proofseal request transition ${requestId} CLOSED`));
    assert.ok(shown.stdout.includes(`proofseal request transition ${requestId} CANCELED`));

    const json = JSON.parse((await cli(['request', 'show', requestId, '--json'], env)).stdout);
    const dee = json.authorizedSignees.find((s: { email: string }) => s.email === 'dee@example.com');
    assert.ok(dee.declinedOn > 0, "the owner's JSON has declinedOn");
    assert.equal(dee.declineReason, reason);

    const toRequester = (await outbox()).find(
      (m) => m.requestId === requestId && m.type === 'signatureFeedbackRequesterEmail',
    );
    assert.ok(toRequester, 'the requester is mailed');
    const text = (await cli(['outbox', 'mail', toRequester.id], env)).stdout;
    assert.match(text, /Subject: Dee Cline declined to sign "quote\.txt"/);
    assert.match(text, /Reason given: The price on page 2 is wrong/);
    assert.match(text, /You can close it to keep the signatures made/);

    const closed = await cli(['request', 'transition', requestId, 'CLOSED'], env);
    assert.equal(closed.code, 0, closed.stderr);
    const after = await cli(['request', 'show', requestId], env);
    assert.match(after.stdout, /state {5}CLOSED/);
    assert.doesNotMatch(after.stdout, /next {6}/, 'nothing left to do once closed');
  });
});
