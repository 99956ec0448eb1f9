/**
 * Branding images (`serviceLogoURL`, `serviceIllustrationURL`) fetched through the SSRF-guarded HTTP client
 * and cached in memory: a success for `ttlMs`, a failure for a tenth of it (so a broken logo is not asked
 * for on every attestation, and a fixed one is picked up soon). Only PNG and JPEG, up to `maxBytes`, whose
 * header says at most MAX_IMAGE_SIDE pixels a side and MAX_IMAGE_PIXELS in all (read before any decoding).
 */
import type { BrandImage } from '../../app/signature-requests/attestation/attestation-model.js';
import type { BrandImageCheck, BrandImages } from '../../app/signature-requests/attestation/attestation.port.js';
import type { HttpClient } from '../../app/shared/http-client.port.js';
import { imageSizeOf, imageSizeRefusal } from '../../core/images/image-size.js';

export interface BrandImagesOptions {
  readonly ttlMs?: number;
  readonly maxBytes?: number;
  readonly maxEntries?: number;
  readonly now?: () => number;
}

/** What one fetch gave: the image when it may be used, and its check. */
interface Fetched {
  readonly image: BrandImage | null;
  readonly check: BrandImageCheck;
}

const UNAVAILABLE: Fetched = { image: null, check: { kind: 'unavailable' } };

/** The image at `url` when it is a PNG or JPEG whose header says a size within the bound; its size or refusal. */
async function fetchImage(http: HttpClient, url: string, maxBytes: number): Promise<Fetched> {
  try {
    const res = await http.request({ method: 'GET', url, timeoutMs: 5_000, maxResponseBytes: maxBytes });
    if (res.status !== 200) return UNAVAILABLE;
    const size = imageSizeOf(res.body);
    if (size === null) return UNAVAILABLE;
    const refusal = imageSizeRefusal(size);
    if (refusal !== null) return { image: null, check: { kind: 'too-large', refusal } };
    const image = { type: size.type, bytes: new Uint8Array(res.body) };
    return { image, check: { kind: 'image', width: size.width, height: size.height } };
  } catch {
    return UNAVAILABLE;
  }
}

/** The cached image source; without an HTTP client every image is missing (the fallback shows). */
export function cachedBrandImages(http: HttpClient | undefined, opts: BrandImagesOptions = {}): BrandImages {
  const ttl = opts.ttlMs ?? 3_600_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { until: number; fetched: Promise<Fetched> }>();
  const fetched = async (url: string): Promise<Fetched> => {
    const hit = cache.get(url);
    if (hit && hit.until > now()) return hit.fetched;
    if (cache.size >= (opts.maxEntries ?? 64)) cache.delete(cache.keys().next().value!);
    const result = http ? fetchImage(http, url, opts.maxBytes ?? 2 << 20) : Promise.resolve(UNAVAILABLE);
    cache.set(url, { until: now() + ttl, fetched: result });
    if ((await result).image === null) cache.set(url, { until: now() + ttl / 10, fetched: result });
    return result;
  };
  return {
    get: async (url) => (await fetched(url)).image,
    check: async (url) => (await fetched(url)).check,
  };
}
