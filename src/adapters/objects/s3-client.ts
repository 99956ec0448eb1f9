/**
 * The few S3 calls proofseal makes (PUT, GET, DELETE, ListObjectsV2), over Node's fetch, signed with AWS
 * Signature V4 by aws4fetch (one small file, no dependencies). Every S3-compatible store speaks them: AWS
 * S3, MinIO, Ceph RGW, Cloudflare R2, Garage. The store is the operator's own, named by OBJECT_STORE_URL,
 * so its address is not put through the SSRF guard (like the database and the TSAs).
 */
import { AwsClient } from 'aws4fetch';

/** OBJECT_STORE_URL, taken apart. */
export interface S3Location {
  /** `http(s)://host[:port]` of the S3 API. */
  readonly endpoint: string;
  readonly bucket: string;
  /** Key prefix of everything proofseal writes (empty, or ending in `/`). */
  readonly prefix: string;
  readonly region: string;
  /** `path`: `endpoint/bucket/key` (MinIO, Ceph, most local stores); `virtual`: `bucket.host/key` (AWS). */
  readonly style: 'path' | 'virtual';
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/**
 * Reads `http(s)://ACCESS_KEY:SECRET@host[:port]/bucket[/prefix][?region=…&style=path|virtual]` (the key and
 * secret percent-encoded). Region `us-east-1` and style `path` unless given.
 * @throws Error naming what is wrong, never the secret
 */
export function parseObjectStoreUrl(raw: string): S3Location {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error('OBJECT_STORE_URL is not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('OBJECT_STORE_URL must be http(s)://');
  if (u.username === '' || u.password === '')
    throw new Error('OBJECT_STORE_URL must carry the access key and secret: http(s)://KEY:SECRET@host/bucket');
  const [bucket = '', ...rest] = u.pathname.split('/').filter((s) => s !== '');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new Error('OBJECT_STORE_URL must name a bucket (3-63 lowercase letters, digits, dots, hyphens) as its path');
  const style = u.searchParams.get('style') ?? 'path';
  if (style !== 'path' && style !== 'virtual') throw new Error('OBJECT_STORE_URL style must be path or virtual');
  const region = u.searchParams.get('region') ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,40}$/.test(region)) throw new Error('OBJECT_STORE_URL region must be like eu-west-3 (or auto)');
  return {
    endpoint: `${u.protocol}//${u.host}`,
    bucket,
    prefix: rest.length > 0 ? `${rest.map(decodeURIComponent).join('/')}/` : '',
    region,
    style,
    accessKeyId: decodeURIComponent(u.username),
    secretAccessKey: decodeURIComponent(u.password),
  };
}

/** A failed S3 call: its method, key and status (never a credential). */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    method: string,
    key: string,
    code: string,
  ) {
    super(`object store: ${method} ${key} answered ${status}${code ? ` ${code}` : ''}`);
  }
}

export interface S3Client {
  /** Writes an object; with `ifAbsent`, only when none of that key exists (false when one does, on stores that honour `If-None-Match`). */
  put(
    key: string,
    body: Uint8Array,
    opts?: { contentType?: string; cacheControl?: string; ifAbsent?: boolean },
  ): Promise<boolean>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Deletes the object (no error when there is none). */
  delete(key: string): Promise<void>;
  /** Every key under `prefix`, in key order, page by page. */
  list(prefix: string): AsyncIterable<string>;
  /** The URL of a key (for logs and tests). */
  url(key: string): string;
}

/** Attempts of a call that failed on the network or with a 5xx (aws4fetch backs off between them). */
const RETRIES = 3;

export function s3Client(loc: S3Location): S3Client {
  const aws = new AwsClient({
    accessKeyId: loc.accessKeyId,
    secretAccessKey: loc.secretAccessKey,
    service: 's3',
    region: loc.region,
    retries: RETRIES,
  });
  const base =
    loc.style === 'path' ? `${loc.endpoint}/${loc.bucket}` : loc.endpoint.replace('://', `://${loc.bucket}.`);
  const keyUrl = (key: string) => `${base}/${key.split('/').map(encodeURIComponent).join('/')}`;

  const call = (method: string, url: string, init: RequestInit = {}) => aws.fetch(url, { method, ...init });
  async function failed(method: string, key: string, res: Response): Promise<never> {
    const text = await res.text().catch(() => '');
    throw new S3Error(res.status, method, key, /<Code>([^<]{1,64})<\/Code>/.exec(text)?.[1] ?? '');
  }

  return {
    url: keyUrl,
    async put(key, body, opts = {}) {
      const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/octet-stream' };
      if (opts.cacheControl) headers['cache-control'] = opts.cacheControl;
      if (opts.ifAbsent) headers['if-none-match'] = '*';
      const res = await call('PUT', keyUrl(key), { body, headers });
      if (opts.ifAbsent && (res.status === 412 || res.status === 409)) {
        await res.body?.cancel();
        return false;
      }
      if (!res.ok) return failed('PUT', key, res);
      await res.body?.cancel();
      return true;
    },
    async get(key) {
      const res = await call('GET', keyUrl(key));
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok) return failed('GET', key, res);
      return new Uint8Array(await res.arrayBuffer());
    },
    async delete(key) {
      const res = await call('DELETE', keyUrl(key));
      if (!res.ok && res.status !== 404) return failed('DELETE', key, res);
      await res.body?.cancel();
    },
    async *list(prefix) {
      let token: string | null = null;
      do {
        const q = new URLSearchParams({ 'list-type': '2', prefix });
        if (token) q.set('continuation-token', token);
        const res = await call('GET', `${base}?${q.toString()}`);
        if (!res.ok) await failed('LIST', prefix, res);
        const page = parseListPage(await res.text());
        yield* page.keys;
        token = page.next;
      } while (token);
    },
  };
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) => s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => XML_ENTITIES[e] ?? '');

/**
 * The keys and the continuation token of a ListObjectsV2 answer. Only these three elements are read, each
 * plain text under its own tag, so a pattern per element does what an XML parser would (no attributes, no
 * nesting of the same name, the five predefined entities).
 */
export function parseListPage(xml: string): { keys: string[]; next: string | null } {
  const keys = [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => unescapeXml(m[1] ?? ''));
  const truncated = /<IsTruncated>\s*true\s*<\/IsTruncated>/.test(xml);
  const next = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
  return { keys, next: truncated && next ? unescapeXml(next) : null };
}
