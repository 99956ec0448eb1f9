/**
 * Outbound HTTP to user-chosen URLs (callbacks, identity servers) without opening a path into the
 * operator's network (SSRF). The host is resolved once; every address it resolves to must be public,
 * and the connection is pinned to the checked address (no second lookup, so no DNS rebinding). Only
 * http(s); no redirect is followed; time and response size are bounded. `allowPrivateUrls` (an
 * operator setting, and the tests) lifts the address rule only; `allowedOrigins` lifts it for exactly
 * the origins listed (the service's own identity server, which the default run serves on localhost).
 * `checkTarget` applies the same rule when a URL is given, resolving its host (cached a minute), so a
 * name that points at a private address is refused at input, and again at each fetch.
 */
import { lookup as dnsLookup, Resolver } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import {
  OutboundError,
  type HttpClient,
  type OutboundRequest,
  type OutboundResponse,
} from '../../app/shared/http-client.port.js';

const V4_BLOCKED = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
/** Loopback, unspecified, IPv4-mapped/compatible/translated, ULA, link-local, multicast, documentation, 6to4, Teredo. */
const V6_BLOCKED = [
  ['::', 128],
  ['::1', 128],
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const;

const blocked = new BlockList();
for (const [net, prefix] of V4_BLOCKED) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6_BLOCKED) blocked.addSubnet(net, prefix, 'ipv6');
/** IPv4-mapped IPv6 (::ffff:a.b.c.d). Kept apart: BlockList matches plain IPv4 addresses against this range too. */
const mapped = new BlockList();
mapped.addSubnet('::ffff:0:0', 96, 'ipv6');

/** True when `address` (an IP literal) is loopback, private, link-local, CGNAT, multicast, reserved… */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && mapped.check(address, 'ipv6')) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface SafeFetchOptions {
  readonly allowPrivateUrls: boolean;
  /** Origins (`http://localhost:3001`) exempt from the address rule: the service's own servers, nothing else. */
  readonly allowedOrigins?: readonly string[];
  /** Name resolution; node:dns by default. */
  readonly lookup?: (host: string) => Promise<{ address: string; family: number }[]>;
  /**
   * Name resolution of the input-time check; by default the DNS resolver (c-ares: its own sockets, bounded
   * to 2 s), not getaddrinfo, whose few threads a flood of names with slow servers would hold; `lookup`
   * when one is given (tests).
   */
  readonly inputLookup?: (host: string) => Promise<{ address: string; family: number }[]>;
  readonly defaultTimeoutMs?: number;
  readonly defaultMaxResponseBytes?: number;
}

const defaultLookup = (host: string) => dnsLookup(host, { all: true, verbatim: true });

/** A and AAAA records from the DNS, each query bounded; a family without records gives none. */
function dnsResolverLookup(): (host: string) => Promise<{ address: string; family: number }[]> {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const found = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (found.length === 0) throw new Error(`cannot resolve ${host}`);
    return found;
  };
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('INVALID_URL', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError('FORBIDDEN_URL', `scheme ${url.protocol} is not allowed; use http or https`);
  if (url.username !== '' || url.password !== '')
    throw new OutboundError('FORBIDDEN_URL', 'credentials in the URL are not allowed');
  return url;
}

const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** `localhost` and its subdomains always name this machine (RFC 6761), whatever a resolver says. */
const isLocalhostName = (host: string) => /(^|\.)localhost\.?$/i.test(host);

/** How long a host's verdict at input time is kept: the fetch checks the address again anyway. */
const TARGET_CACHE_MS = 60_000;
const TARGET_CACHE_MAX = 1_000;

function originOf(raw: string): string {
  return new URL(raw).origin;
}

export function createSafeFetch(opts: SafeFetchOptions): HttpClient {
  const lookup = opts.lookup ?? defaultLookup;
  const inputLookup = opts.inputLookup ?? opts.lookup ?? dnsResolverLookup();
  const allowed = new Set((opts.allowedOrigins ?? []).map(originOf));
  /**
   * URL text → when it was taken at input (clients send the same identityURL with each anchor: no parse
   * and no lookup for a minute). Input-time checks only; every fetch checks again.
   */
  const takenUrls = new Map<string, number>();
  const exempt = (url: URL) => opts.allowPrivateUrls || allowed.has(url.origin);

  function checkUrl(raw: string): URL {
    const url = parseUrl(raw);
    if (exempt(url)) return url;
    const host = bareHost(url);
    if (isLocalhostName(host)) throw new OutboundError('FORBIDDEN_URL', `${host} is this machine`);
    if (isIP(host) !== 0 && isBlockedAddress(host))
      throw new OutboundError('FORBIDDEN_URL', `address ${host} is not public`);
    return url;
  }

  async function checkTarget(raw: string): Promise<void> {
    const seen = takenUrls.get(raw);
    if (seen !== undefined && Date.now() - seen < TARGET_CACHE_MS) return;
    const url = checkUrl(raw);
    const host = bareHost(url);
    if (!exempt(url) && isIP(host) === 0) {
      try {
        await resolve(url, inputLookup);
      } catch (err) {
        // A name that does not resolve now is taken (it may later); the fetch checks it again.
        if (err instanceof OutboundError && err.reason === 'FORBIDDEN_URL') throw err;
      }
    }
    if (takenUrls.size >= TARGET_CACHE_MAX) takenUrls.clear();
    takenUrls.set(raw, Date.now());
  }

  async function resolve(url: URL, find = lookup): Promise<{ address: string; family: number }[]> {
    const host = bareHost(url);
    const family = isIP(host);
    if (family !== 0) return [{ address: host, family }];
    let addresses: { address: string; family: number }[];
    try {
      addresses = await find(host);
    } catch {
      throw new OutboundError('DNS', `cannot resolve ${host}`);
    }
    if (addresses.length === 0) throw new OutboundError('DNS', `cannot resolve ${host}`);
    const bad = addresses.find((a) => isBlockedAddress(a.address));
    if (bad && !exempt(url))
      throw new OutboundError('FORBIDDEN_URL', `${host} resolves to ${bad.address}, which is not public`);
    return addresses;
  }

  return {
    checkUrl: (raw) => {
      checkUrl(raw);
    },
    checkTarget,
    async request(req) {
      const url = checkUrl(req.url);
      const addresses = (await resolve(url)).slice(0, MAX_ADDRESSES_TRIED);
      const until = Date.now() + (req.timeoutMs ?? opts.defaultTimeoutMs ?? 10_000);
      const maxBytes = req.maxResponseBytes ?? opts.defaultMaxResponseBytes ?? 1 << 20;
      // Each checked address in turn while the connection itself is refused: `localhost` names ::1 first on
      // most systems, and a server listening on IPv4 only is still reached (as any client would).
      for (const [i, pinned] of addresses.entries()) {
        try {
          return await send(url, pinned, req, Math.max(1, until - Date.now()), maxBytes);
        } catch (err) {
          if (!(err instanceof NotConnected) || i === addresses.length - 1) throw err;
        }
      }
      throw new OutboundError('DNS', `cannot resolve ${url.hostname}`);
    },
  };
}

/** Addresses of one host tried in turn when the connection is refused. */
const MAX_ADDRESSES_TRIED = 4;
/** Errors of connecting, before anything was sent: the next address may be tried. */
const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/** The connection to one address could not be made (nothing was sent). */
class NotConnected extends OutboundError {}

function send(
  url: URL,
  pinned: { address: string; family: number },
  req: OutboundRequest,
  timeoutMs: number,
  maxBytes: number,
): Promise<OutboundResponse> {
  // Every connection of this request goes to the checked address, whatever the host name says now.
  const pinnedLookup: LookupFunction = (_host, options, cb) => {
    if ((options as { all?: boolean }).all)
      (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const lib = url.protocol === 'https:' ? https : http;
  const body =
    req.body === undefined
      ? undefined
      : typeof req.body === 'string'
        ? Buffer.from(req.body, 'utf8')
        : Buffer.from(req.body);
  return new Promise<OutboundResponse>((resolve, reject) => {
    const fail = (err: OutboundError) => {
      clearTimeout(timer);
      request.destroy();
      reject(err);
    };
    const request = lib.request(
      url,
      {
        method: req.method,
        lookup: pinnedLookup,
        agent: false,
        headers: { ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return fail(new OutboundError('TOO_LARGE', `response larger than ${maxBytes} bytes`));
          chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: flatten(res.headers), body: Buffer.concat(chunks) });
        });
        res.on('error', () => fail(new OutboundError('NETWORK', 'response interrupted')));
      },
    );
    const timer = setTimeout(
      () => fail(new OutboundError('TIMEOUT', `no complete answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      const Failure = code !== undefined && CONNECT_ERRORS.has(code) ? NotConnected : OutboundError;
      fail(new Failure('NETWORK', `request failed: ${code ?? err.message}`));
    });
    request.end(body);
  });
}

function flatten(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
