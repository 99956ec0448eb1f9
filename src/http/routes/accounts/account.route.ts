import { Type } from '@sinclair/typebox';
import type { Account } from '../../../app/accounts/account.port.js';
import { updateAccount } from '../../../app/accounts/update-account.js';
import type { RouteModule } from '../../route-module.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { accountSecurity as security, errors, Timestamp, Uuid } from '../../schemas.js';

const User = Type.Object({
  id: Uuid,
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  created: Timestamp,
  lastModified: Timestamp,
});
const UserUpdate = Type.Object(
  {
    firstName: Type.Optional(Type.String({ maxLength: 200 })),
    lastName: Type.Optional(Type.String({ maxLength: 200 })),
    password: Type.Optional(
      Type.Object(
        { current: Type.String({ maxLength: 1024 }), next: Type.String({ minLength: 10, maxLength: 1024 }) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const view = (a: Account) => ({
  id: a.id,
  email: a.email,
  firstName: a.firstName,
  lastName: a.lastName,
  created: a.created,
  lastModified: a.lastModified,
});

export const accountRoutes: RouteModule = (app, deps, config) => {
  app.get(
    '/user',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['account'],
        summary: 'The calling account',
        security,
        response: { 200: User, ...errors(401, 429) },
      },
    },
    async (req) => view(accountOf(req)),
  );

  app.put(
    '/user',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['account'],
        summary: "Change the calling account's names or password",
        security,
        body: UserUpdate,
        response: { 200: User, ...errors(400, 401, 403, 413, 415, 429, 503) },
      },
    },
    async (req) => {
      const body = req.body;
      try {
        const input = { ...body, accountId: accountOf(req).id, wrongPasswordsPerMinute: config.rateLimitAuthPerMinute };
        return view(await updateAccount(deps, input));
      } finally {
        // Whatever the outcome: a remembered login must never outlive a password change.
        if (body.password) app.forgetCredentials();
      }
    },
  );
};
