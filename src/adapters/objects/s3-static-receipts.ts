import type { StaticReceiptObjects } from '../../app/anchoring/static-receipts.port.js';
import type { S3Client } from './s3-client.js';

/**
 * Static receipts in the S3-compatible store, under `<prefix>receipts/<name>.json`: typed JSON and cacheable
 * for good, so the bucket (or a CDN in front of it) serves them as they are. Only this prefix is to be
 * readable by the public, and never listable (docs/performance.md "Static settled receipts").
 */
export function s3StaticReceipts(s3: S3Client, prefix: string): StaticReceiptObjects {
  return {
    async put(name, json) {
      await s3.put(`${prefix}receipts/${name}.json`, Buffer.from(json, 'utf8'), {
        contentType: 'application/json; charset=utf-8',
        cacheControl: 'public, max-age=31536000, immutable',
      });
    },
  };
}
