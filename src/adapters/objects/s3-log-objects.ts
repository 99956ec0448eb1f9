import type { LogObjects } from '../../app/transparency/transparency.port.js';
import type { S3Client } from './s3-client.js';

/**
 * The transparency log's files in the S3-compatible store, under `<prefix>log/` with the paths `/log/` serves
 * (C2SP tlog-tiles: `log/checkpoint`, `log/tile/0/x001/234`, `log/tile/entries/005.p/17`), so the bucket (or a
 * CDN in front of it) serves a tlog-tiles client as the API does. Full tiles are cacheable for good; the
 * checkpoint and partial tiles are not cached (as the API sends them). Only this prefix and `receipts/` are to
 * be readable by the public (docs/transparency-log.md).
 */
export function s3LogObjects(s3: S3Client, prefix: string): LogObjects {
  return {
    async put(path, file) {
      await s3.put(`${prefix}log/${path}`, file.body, {
        contentType: file.contentType,
        cacheControl: file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
    },
  };
}
