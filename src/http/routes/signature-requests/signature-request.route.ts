import { createSignatureRequest } from '../../../app/signature-requests/create-signature-request.js';
import {
  getSignatureRequest,
  getSignatureRequestAsSigner,
} from '../../../app/signature-requests/get-signature-request.js';
import { requesterOf } from '../../../app/signature-requests/get-shared-request.js';
import { searchSignatureRequests } from '../../../app/signature-requests/search-signature-requests.js';
import { signerViewOf } from '../../../app/signature-requests/signature-request-view.js';
import { transitionSignatureRequest } from '../../../app/signature-requests/transition-signature-request.js';
import { updateSignatureRequest } from '../../../app/signature-requests/update-signature-request.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import type { RouteModule } from '../../route-module.js';
import { accountSecurity as security, errors, page, Page } from '../../schemas.js';
import {
  CreateRequestBody,
  IdParams,
  ListQuery,
  RequestSchema,
  SignerQuery,
  TransitionBody,
  UpdateRequestBody,
} from './signature-request.schemas.js';
import { originOf, ownerViewWithLink } from './route-helpers.js';

const tags = ['signature requests'];

/** The owner's operations on signature requests: create, read, change a DRAFT, search, transition. */
export const signatureRequestRoutes: RouteModule = (app, deps, config) => {
  const ownerView = ownerViewWithLink(deps, config);

  app.post(
    '/signatureRequest',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: 'Create a signature request: DRAFT, or activated at once when no state is given',
        security,
        body: CreateRequestBody,
        response: { 200: RequestSchema, ...errors(400, 401, 413, 415, 429) },
      },
    },
    async (req) => {
      const account = accountOf(req);
      const input = { ...req.body, accountId: account.id, actor: account.email, origin: originOf(req) };
      return ownerView(await createSignatureRequest(deps, input));
    },
  );

  app.get(
    '/signatureRequest/:id',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'Get a signature request: as its owner (credentials), or as a signer (?signeeId=, no account)',
        security: [...security, {}],
        params: IdParams,
        querystring: SignerQuery,
        response: { 200: RequestSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (req) => {
      const { signeeId: signerSecret } = req.query;
      if (signerSecret === undefined)
        return ownerView(await getSignatureRequest(deps, { accountId: accountOf(req).id, id: req.params.id }));
      const found = await getSignatureRequestAsSigner(deps, { id: req.params.id, signerSecret, origin: originOf(req) });
      const view = signerViewOf(deps, found.request, found.signer);
      return { ...view, requester: await requesterOf(deps, found.request) };
    },
  );

  app.put(
    '/signatureRequest/:id',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: 'Replace the fields, signers and watchers of a DRAFT request',
        security,
        params: IdParams,
        body: UpdateRequestBody,
        response: { 200: RequestSchema, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (req) => {
      const account = accountOf(req);
      const input = { ...req.body, accountId: account.id, id: req.params.id, actor: account.email };
      return ownerView(await updateSignatureRequest(deps, { ...input, origin: originOf(req) }));
    },
  );

  app.get(
    '/signatureRequests',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: "Search the account's signature requests by name, state or hashToSign (newest first)",
        security,
        querystring: ListQuery,
        response: { 200: Page(RequestSchema), ...errors(400, 401, 429) },
      },
    },
    async (req) => {
      const q = { page: 0, size: 20, ...req.query };
      const found = await searchSignatureRequests(deps, { ...q, accountId: accountOf(req).id });
      return page(found.items.map(ownerView), q.page, q.size, found.total);
    },
  );

  app.post(
    '/signatureRequest/:id/transition',
    {
      config: { auth: 'account' },
      schema: {
        tags,
        summary: 'Move the request: DRAFT→PENDING, PENDING→DRAFT|CANCELED, IN_PROGRESS→CLOSED|CANCELED',
        security,
        params: IdParams,
        body: TransitionBody,
        response: { 200: RequestSchema, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => {
      const account = accountOf(req);
      const input = { accountId: account.id, id: req.params.id, to: req.body, actor: account.email };
      return ownerView(await transitionSignatureRequest(deps, { ...input, origin: originOf(req) }));
    },
  );
};
