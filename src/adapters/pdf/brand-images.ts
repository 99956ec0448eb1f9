/**
 * Branding images (`serviceLogoURL`, `serviceIllustrationURL`) fetched through the SSRF-guarded HTTP client
 * and cached in memory: a success for `ttlMs`, a failure for a tenth of it (so a broken logo is not asked
 * for on every attestation, and a fixed one is picked up soon). Only PNG and JPEG, up to `maxBytes`.
 */
import type { BrandImage } from '../../app/signature-requests/attestation/attestation-model.js';
import type { BrandImages } from '../../app/signature-requests/attestation/attestation.port.js';
import type { HttpClient } from '../../app/shared/http-client.port.js';

export interface BrandImagesOptions {
  readonly ttlMs?: number;
  readonly maxBytes?: number;
  readonly maxEntries?: number;
  readonly now?: () => number;
}

const PNG = [0x89, 0x50, 0x4e, 0x47];
const JPEG = [0xff, 0xd8, 0xff];

/** The image type by its first bytes; null for anything else. */
export function imageTypeOf(bytes: Uint8Array): BrandImage['type'] | null {
  const starts = (magic: number[]) => magic.every((b, i) => bytes[i] === b);
  if (starts(PNG)) return 'png';
  if (starts(JPEG)) return 'jpeg';
  return null;
}

async function fetchImage(http: HttpClient, url: string, maxBytes: number): Promise<BrandImage | null> {
  try {
    const res = await http.request({ method: 'GET', url, timeoutMs: 5_000, maxResponseBytes: maxBytes });
    if (res.status !== 200) return null;
    const type = imageTypeOf(res.body);
    return type === null ? null : { type, bytes: new Uint8Array(res.body) };
  } catch {
    return null;
  }
}

/** The cached image source; without an HTTP client every image is missing (the fallback shows). */
export function cachedBrandImages(http: HttpClient | undefined, opts: BrandImagesOptions = {}): BrandImages {
  const ttl = opts.ttlMs ?? 3_600_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { until: number; image: Promise<BrandImage | null> }>();
  return {
    async get(url) {
      const hit = cache.get(url);
      if (hit && hit.until > now()) return hit.image;
      if (cache.size >= (opts.maxEntries ?? 64)) cache.delete(cache.keys().next().value!);
      const image = http ? fetchImage(http, url, opts.maxBytes ?? 2 << 20) : Promise.resolve(null);
      cache.set(url, { until: now() + ttl, image });
      if ((await image) === null) cache.set(url, { until: now() + ttl / 10, image });
      return image;
    },
  };
}
