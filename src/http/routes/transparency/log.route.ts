import { Type } from '@sinclair/typebox';
import { readLogFile, type LogFile } from '../../../app/transparency/read-log.js';
import type { RouteModule } from '../../route-module.js';
import { errors } from '../../schemas.js';

const TEXT = { 'text/plain': { schema: { type: 'string' } } };
const BINARY = { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } };

/** A monitor walks every tile and bundle: ten times the public limit, per minute. */
const TILE_READS_PER_PUBLIC_READ = 10;

/**
 * The transparency log as static files under `/log/` (docs/transparency-log.md): `checkpoint` (a C2SP
 * signed-note checkpoint), `key` (its verifier key), and the C2SP tlog-tiles `tile/L/N[.p/W]` and
 * `tile/entries/N[.p/W]`. Tiles never change once served (a partial one's first W hashes neither): they are
 * cached for a year; the checkpoint is not cached.
 */
export const logRoutes: RouteModule = (app, deps, config) => {
  const transparency = deps.transparency;
  if (!transparency) return;
  const logDeps = { ...deps, transparency };
  const send = (file: LogFile, reply: { header(k: string, v: string): unknown; send(b: Buffer): unknown }) => {
    reply.header('content-type', file.contentType);
    reply.header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    return reply.send(file.body);
  };
  const limit = { rateLimit: { max: config.rateLimitPublicPerMinute, timeWindow: 60_000 } };
  app.get(
    '/checkpoint',
    {
      config: limit,
      schema: {
        tags: ['transparency log'],
        summary: "The log's newest checkpoint (C2SP tlog-checkpoint, a signed note); 404 before the first",
        response: { 200: { description: 'signed note', content: TEXT }, ...errors(404, 429) },
      },
    },
    async (_req, reply) => send(await readLogFile(logDeps, 'checkpoint'), reply),
  );
  app.get(
    '/key',
    {
      config: limit,
      schema: {
        tags: ['transparency log'],
        summary: "The checkpoints' verifier key, `<origin>+<key hash>+<base64 Ed25519 key>` (C2SP signed-note)",
        response: { 200: { description: 'verifier key', content: TEXT }, ...errors(429) },
      },
    },
    async (_req, reply) => send(await readLogFile(logDeps, 'key'), reply),
  );
  app.get(
    '/tile/*',
    {
      config: { rateLimit: { max: TILE_READS_PER_PUBLIC_READ * config.rateLimitPublicPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['transparency log'],
        summary: 'A tile `tile/L/N[.p/W]` or entry bundle `tile/entries/N[.p/W]` (C2SP tlog-tiles); 404 when none',
        params: Type.Object({ '*': Type.String({ maxLength: 200 }) }),
        response: { 200: { description: 'tile or entry bundle', content: BINARY }, ...errors(404, 429) },
      },
    },
    async (req, reply) => send(await readLogFile(logDeps, `tile/${req.params['*']}`), reply),
  );
};
