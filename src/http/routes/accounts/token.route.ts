import { Type } from '@sinclair/typebox';
import { createApiToken, listApiTokens, revokeApiToken } from '../../../app/accounts/manage-api-tokens.js';
import type { RouteModule } from '../../route-module.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { accountSecurity as security, errors, Timestamp, Uuid } from '../../schemas.js';

const TokenInfo = Type.Object({
  id: Uuid,
  name: Type.String(),
  created: Timestamp,
  lastUsed: Type.Union([Timestamp, Type.Null()]),
});

export const tokenRoutes: RouteModule = (app, deps) => {
  app.get(
    '/token',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['account'],
        summary: 'Create an API token for the calling account (shown once)',
        security,
        querystring: Type.Object(
          { name: Type.Optional(Type.String({ maxLength: 100 })) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ token: Type.String(), id: Uuid, name: Type.String(), created: Timestamp }),
          ...errors(400, 401, 429),
        },
      },
    },
    async (req) => {
      const { token, apiToken } = await createApiToken(deps, { accountId: accountOf(req).id, name: req.query.name });
      return { token, id: apiToken.id, name: apiToken.name, created: apiToken.created };
    },
  );

  app.delete(
    '/token',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['account'],
        summary: "Revoke one of the calling account's API tokens",
        security,
        querystring: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        response: { 204: Type.Null(), ...errors(400, 401, 404, 429) },
      },
    },
    async (req, reply) => {
      await revokeApiToken(deps, { accountId: accountOf(req).id, token: req.query.token });
      app.forgetCredentials();
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/tokens',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['account'],
        summary: "List the calling account's live API tokens (without their secrets)",
        security,
        response: { 200: Type.Array(TokenInfo), ...errors(401, 429) },
      },
    },
    async (req) => listApiTokens(deps, { accountId: accountOf(req).id }),
  );
};
