import { Type } from '@sinclair/typebox';
import { anchorView } from '../../../app/anchoring/anchor-view.js';
import { createAnchor } from '../../../app/anchoring/create-anchor.js';
import { getAnchor } from '../../../app/anchoring/get-anchor.js';
import { listPublicAnchorIds } from '../../../app/anchoring/list-public-anchor-ids.js';
import { searchAnchors } from '../../../app/anchoring/search-anchors.js';
import { updateAnchor } from '../../../app/anchoring/update-anchor.js';
import type { RouteModule } from '../../route-module.js';
import { accountOf } from '../../plugins/auth.plugin.js';
import { accountSecurity as security, errors, Hash, Page, page, pageOf, PageQuery, Uuid } from '../../schemas.js';
import { AnchorSchema, CreateAnchorBody, IdParams, UpdateAnchorBody } from './anchor.schemas.js';

const LIST_DEFAULTS = { sort: 'created', direction: 'desc' } as const;

const ListQuerySchema = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(Type.String({ maxLength: 256 })),
    hash: Type.Optional(Hash),
    signedHash: Type.Optional(Hash),
    tags: Type.Optional(
      Type.Array(Type.String({ maxLength: 1000 }), {
        maxItems: 32,
        description: 'anchors having all these tags (repeat, or comma-separated)',
      }),
    ),
    sort: Type.Optional(
      Type.Union([Type.Literal('created'), Type.Literal('lastModified'), Type.Literal('name')], {
        default: LIST_DEFAULTS.sort,
      }),
    ),
    direction: Type.Optional(
      Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: LIST_DEFAULTS.direction }),
    ),
  },
  { additionalProperties: false },
);

const IdsQuerySchema = Type.Object(
  { ...PageQuery, hash: Type.Optional(Hash), signedHash: Type.Optional(Hash) },
  { additionalProperties: false },
);

export const anchorRoutes: RouteModule = (app, deps, config) => {
  // Inline schemas: an addSchema() in this scope would replace the app's validator compiler with Fastify's (coercing) one.
  const anchorRef = AnchorSchema;

  app.post(
    '/anchor',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['anchors'],
        summary: 'Create a signature anchor (signedHash, signature, pubKey) or a data anchor (hash); status WAIT',
        security,
        body: CreateAnchorBody,
        response: { 200: anchorRef, ...errors(400, 401, 413, 415, 429) },
      },
    },
    async (req) => anchorView(await createAnchor(deps, { ...req.body, accountId: accountOf(req).id })),
  );

  app.get(
    '/anchor/:id',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['anchors'],
        summary: "Get one of the account's anchors, with its status",
        security,
        params: IdParams,
        response: { 200: anchorRef, ...errors(401, 404, 429) },
      },
    },
    async (req) => anchorView(await getAnchor(deps, { accountId: accountOf(req).id, id: req.params.id })),
  );

  app.put(
    '/anchor/:id',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['anchors'],
        summary: 'Change name, public, tags, metadata or callbackURL of an anchor',
        security,
        params: IdParams,
        body: UpdateAnchorBody,
        response: { 200: anchorRef, ...errors(400, 401, 404, 429) },
      },
    },
    async (req) => {
      const { callbackURL, ...rest } = req.body;
      const changes = { ...rest, ...(callbackURL !== undefined ? { callbackUrl: callbackURL } : {}) };
      return anchorView(await updateAnchor(deps, { accountId: accountOf(req).id, id: req.params.id, changes }));
    },
  );

  app.get(
    '/anchors',
    {
      config: { auth: 'account' },
      schema: {
        tags: ['anchors'],
        summary: "Search the account's anchors",
        security,
        querystring: ListQuerySchema,
        response: { 200: Page(anchorRef), ...errors(400, 401, 429) },
      },
    },
    async (req) => {
      const { page: pageNo, size } = pageOf(req.query);
      const { sort = LIST_DEFAULTS.sort, direction = LIST_DEFAULTS.direction } = req.query;
      const tags = req.query.tags?.flatMap((t) => t.split(',')).filter((t) => t !== '');
      const search = { ...req.query, page: pageNo, size, sort, direction, tags, accountId: accountOf(req).id };
      const found = await searchAnchors(deps, search);
      return page(
        found.items.map((a) => anchorView(a)),
        pageNo,
        size,
        found.total,
      );
    },
  );

  for (const path of ['/anchorids', '/anchorIds']) {
    app.get(
      path,
      {
        config: { rateLimit: { max: config.rateLimitPublicPerMinute, timeWindow: 60_000 } },
        schema: {
          tags: ['anchors'],
          summary: 'Ids of the PUBLIC anchors of a hash (no account needed)',
          hide: path === '/anchorIds',
          querystring: IdsQuerySchema,
          response: { 200: Page(Uuid), ...errors(400, 429) },
        },
      },
      async (req) => {
        const { page: pageNo, size } = pageOf(req.query);
        const found = await listPublicAnchorIds(deps, { ...req.query, page: pageNo, size });
        return page(found.items, pageNo, size, found.total);
      },
    );
  }
};
