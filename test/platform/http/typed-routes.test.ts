/**
 * A route module gets `req.body`, `req.params` and `req.query` typed from its TypeBox schemas (this
 * file type-checks only then: `npm run check` runs tsc over tests), while validation stays strict:
 * bodies are not coerced, query and path text is, unknown fields are refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../../src/http/app.js';
import { testApp } from '../../support/fixtures.js';
import { storeKinds } from '../../support/stores.js';

const [embedded] = await storeKinds();

/** Uses every request part with its static type, without a cast. */
const typedProbe: RouteModule = (app) => {
  app.post(
    '/typed/:id',
    {
      schema: {
        params: Type.Object({ id: Type.String({ maxLength: 10 }) }),
        querystring: Type.Object({ times: Type.Integer({ minimum: 1, maximum: 3 }) }, { additionalProperties: false }),
        body: Type.Object(
          { n: Type.Integer(), tags: Type.Optional(Type.Array(Type.String())) },
          { additionalProperties: false },
        ),
      },
    },
    async (req) => {
      const id: string = req.params.id;
      const times: number = req.query.times;
      const n: number = req.body.n;
      const tags: string[] = req.body.tags ?? [];
      return { id: id.repeat(times), double: n * 2, tags: tags.map((t) => t.toUpperCase()) };
    },
  );
};

describe('typed route modules', () => {
  it('receive typed request parts, validated strictly', async () => {
    const s = await embedded!.open();
    const app = await testApp(s.store, { routes: [typedProbe] });
    try {
      const post = (url: string, payload: string) =>
        app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
      const ok = await post('/v1/typed/ab?times=2', '{"n": 21, "tags": ["x"]}');
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(ok.json(), { id: 'abab', double: 42, tags: ['X'] });
      for (const [url, body] of [
        ['/v1/typed/ab?times=2', '{"n": "21"}'],
        ['/v1/typed/ab?times=2', '{"n": 1, "extra": true}'],
        ['/v1/typed/ab?times=9', '{"n": 1}'],
        ['/v1/typed/ab?times=1&x=1', '{"n": 1}'],
        ['/v1/typed/abcdefghijk?times=1', '{"n": 1}'],
      ] as const) {
        const res = await post(url, body);
        assert.equal(res.statusCode, 400, `${url} ${body} → ${res.body}`);
        assert.equal(res.json().code, 'VALIDATION_FAILED');
      }
    } finally {
      await app.close();
      await s.destroy();
    }
  });
});
