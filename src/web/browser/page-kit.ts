/** Small browser helpers shared by the signature and sharing pages. */
import { sha256Hex } from '../../core/hash/sha256.js';
import { isLang, type Lang } from '../i18n.js';

/** The language the server rendered the page in. */
export function pageLang(): Lang {
  const htmlLang = document.documentElement.lang;
  return isLang(htmlLang) ? htmlLang : 'en';
}

/** The element with this id (the pages render every id the scripts use). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
}

/** Shows elements. */
export function show(...els: HTMLElement[]): void {
  for (const el of els) el.hidden = false;
}

/** Hides elements. */
export function hide(...els: HTMLElement[]): void {
  for (const el of els) el.hidden = true;
}

/** Shows elements when `visible`, hides them otherwise. */
export function toggle({ visible }: { readonly visible: boolean }, ...els: HTMLElement[]): void {
  for (const el of els) el.hidden = !visible;
}

/** SHA-256 of a file, hex: WebCrypto in a secure context, else the bundled core hash. */
export async function fileSha256(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!globalThis.crypto?.subtle) return sha256Hex(bytes);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A date as people read it in `lang` (UTC, so every reader sees the same). */
export function formatDate(lang: Lang, ms: number): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(ms);
}

/** The requester as a line: the name, and the e-mail when it says something more. */
export function requesterText(r: { name: string; email?: string } | undefined): string {
  if (!r) return '—';
  return r.email && r.email !== r.name ? `${r.name} <${r.email}>` : r.name;
}

/** An API answer: its status, its JSON body (or null) and its error code when it failed. */
export interface ApiAnswer<T> {
  readonly status: number;
  readonly body: T | null;
  readonly code: string | null;
}

/** `fetch` a URL of this origin as JSON; a network failure becomes status 0 with code NETWORK. */
export async function api<T>(url: string, init?: RequestInit): Promise<ApiAnswer<T>> {
  try {
    const res = await fetch(url, { ...init, credentials: 'omit', referrerPolicy: 'no-referrer' });
    const body = (await res.json().catch(() => null)) as (T & { code?: unknown }) | null;
    const code = res.ok ? null : typeof body?.code === 'string' ? body.code : `HTTP_${res.status}`;
    return { status: res.status, body, code };
  } catch {
    return { status: 0, body: null, code: 'NETWORK' };
  }
}

/** Relative luminance of an `#rrggbb` colour (WCAG 2). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The CSS colour as `#rrggbb`, or null when it is not an opaque colour. */
function normalColor(value: unknown): string | null {
  if (typeof value !== 'string' || !CSS.supports('color', value)) return null;
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return null;
  ctx.fillStyle = value;
  return /^#[0-9a-f]{6}$/.test(ctx.fillStyle) ? ctx.fillStyle : null;
}

/** WCAG contrast ratio of two `#rrggbb` colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * Brand the page from a request's variables (docs/pages.md, "Branding the pages"): `brandColor1` for
 * links and buttons, `textColor1`/`textColor2` for text, `serviceName` for the banner. A colour is applied
 * only when it keeps WCAG AA contrast (4.5:1) on white, so branding can never make the page unreadable.
 * Custom properties are set through the CSSOM, which the CSP allows (no inline style).
 */
export function applyBranding(vars: Record<string, unknown>): void {
  const root = document.documentElement.style;
  const props: [string, string][] = [
    ['brandColor1', '--ps-accent'],
    ['textColor1', '--ps-text'],
    ['textColor2', '--ps-muted'],
  ];
  for (const [name, prop] of props) {
    const color = normalColor(vars[name]);
    if (color && contrast(color, '#ffffff') >= 4.5) root.setProperty(prop, color);
  }
  const name = vars.serviceName;
  if (typeof name === 'string' && name.trim()) {
    for (const el of document.querySelectorAll<HTMLElement>('.brand')) el.textContent = name;
    document.title = document.title.replace(/ · [^·]*$/, ` · ${name}`);
  }
}

/**
 * Show the request's logo (served by this origin, see the logo routes) before the service name in the
 * banner, once it has loaded: no logo, or one that cannot be fetched, leaves the service name alone and
 * never a broken image. The alt text is the service name the banner shows.
 */
export function showLogo(src: string): void {
  const brand = document.querySelector<HTMLElement>('.banner .brand');
  if (!brand) return;
  const img = new Image();
  img.className = 'logo';
  img.addEventListener('load', () => {
    img.alt = brand.textContent ?? '';
    brand.prepend(img);
  });
  img.src = src;
}
