/**
 * Property, through HTTP and the store on both stores: a signer reading a request with its signeeId
 * sees its own secret and never another signer's (nor their phones, the watchers or the callback URL),
 * whatever the signers, their order, phones, OTP needs and who signed already. The in-memory view has
 * its own property test (signer-view.property.test.ts); this one goes through the one-statement read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { storeKinds } from '../../support/stores.js';
import { createRequest, delegate, openBench, requestBody, type Bench } from '../fixture.js';

const kinds = await storeKinds();

const person = fc.record({
  commonName: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim().length > 0),
  phone: fc.option(fc.stringMatching(/^6[0-8][0-8][0-9]{6}$/), { nil: undefined }), // French mobiles: the service takes only SMS-capable numbers
});
const scenario = fc.record({
  people: fc.array(person, { minLength: 1, maxLength: 5 }),
  reader: fc.nat(),
  signedBefore: fc.nat(),
});

for (const kind of kinds) {
  describe(`signer view through the store on ${kind.name} (property)`, { skip: kind.skip }, () => {
    let b: Bench;
    before(async () => {
      b = await openBench(kind);
    });
    after(async () => b?.close());

    it("shows a signer its own signeeId and never another signer's secret, e-mail or phone", async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ people, reader, signedBefore }) => {
          const authorizedSignees = people.map((p, i) => ({
            commonName: p.commonName,
            email: `signer${i}@example.com`,
            ...(p.phone !== undefined && { countryCallingCode: '33', phone: p.phone, requiresOTP: true }),
          }));
          const body = requestBody({ authorizedSignees, watchers: [{ email: 'watcher@example.com' }] });
          const { id, signeeIds } = await createRequest(b, { ...body, callbackURL: 'https://hooks.example.com/x' });
          const first = signedBefore % people.length;
          if (people[first]!.phone === undefined) await delegate(b, id, signeeIds[first]!);
          const me = reader % people.length;
          const res = await b.app.inject({
            method: 'GET',
            url: `/v1/signatureRequest/${id}?signeeId=${signeeIds[me]}`,
          });
          assert.equal(res.statusCode, 200, res.body);
          const view = res.json();
          assert.equal(view.authorizedSignees[0].signeeId, signeeIds[me]);
          assert.equal(view.authorizedSignees.filter((s: { signeeId?: string }) => s.signeeId).length, 1);
          signeeIds.forEach((other, i) => {
            if (i === me) return;
            assert.ok(!res.body.includes(other), 'another signer secret leaked');
            assert.ok(!res.body.includes(`"signer${i}@example.com"`), "another signer's e-mail leaked");
            const phone = people[i]!.phone;
            if (phone !== undefined && phone !== people[me]!.phone) assert.ok(!res.body.includes(phone));
          });
          assert.ok(!res.body.includes('watcher@example.com'));
          assert.ok(!res.body.includes('hooks.example.com'));
        }),
        { numRuns: 15 },
      );
    });
  });
}
