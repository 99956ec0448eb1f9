import { Type } from '@sinclair/typebox';
import { getCallbackSecret, rotateCallbackSecret } from '../../../app/callbacks/manage-callback-secret.js';
import type { RouteModule } from '../../route-module.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { accountSecurity as security, errors } from '../../schemas.js';

const Secret = Type.Object({
  secret: Type.String({ description: 'Standard Webhooks secret, whsec_ + base64 of the HMAC key' }),
});

export const userRoutes: RouteModule = (app, deps) => {
  app.get(
    '/user/callbackSecret',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['account'],
        summary: "The secret that signs this account's callbacks (created on first use)",
        security,
        response: { 200: Secret, ...errors(401, 429, 503) },
      },
    },
    async (req) => ({ secret: await getCallbackSecret(deps, { accountId: accountOf(req).id }) }),
  );

  app.put(
    '/user/callbackSecret',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['account'],
        summary: 'Rotate the callback secret; the new one signs callbacks from now on',
        security,
        response: { 200: Secret, ...errors(401, 429, 503) },
      },
    },
    async (req) => ({ secret: await rotateCallbackSecret(deps, { accountId: accountOf(req).id }) }),
  );
};
