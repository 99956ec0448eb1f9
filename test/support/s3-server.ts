/**
 * A real S3-compatible HTTP server for the tests (s3rver: S3's REST API over a directory, checking the
 * requests' Signature V4), on a free loopback port with a fresh bucket and directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  /** OBJECT_STORE_URL of the bucket (s3rver's own key pair, path style). */
  readonly url: string;
  close(): Promise<void>;
}

export async function startS3(bucket = 'proofseal-test', prefix = ''): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'proofseal-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = (await server.run()) as { port: number };
  return {
    url: `http://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}${prefix ? `/${prefix}` : ''}?region=us-east-1&style=path`,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
