/** CSS colour strings of the branding variables, as pdf-lib colours. */
import { rgb, type RGB } from '@cantoo/pdf-lib';

const NAMED: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  blue: '#0000ff',
  navy: '#000080',
  gray: '#808080',
  grey: '#808080',
  orange: '#ffa500',
  purple: '#800080',
  teal: '#008080',
};

function fromHex(hex: string): RGB | null {
  const full = hex.length === 3 ? Array.from(hex, (c) => c + c).join('') : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) return null;
  const n = (i: number) => parseInt(full.slice(i, i + 2), 16) / 255;
  return rgb(n(0), n(2), n(4));
}

function fromRgbFunction(s: string): RGB | null {
  const m = /^rgba?\(\s*(\d{1,3})[\s,]+(\d{1,3})[\s,]+(\d{1,3})\s*(?:[,/][^)]*)?\)$/i.exec(s);
  if (!m) return null;
  const [r, g, b] = [m[1], m[2], m[3]].map((v) => Math.min(255, Number(v)) / 255) as [number, number, number];
  return rgb(r, g, b);
}

/** `#rgb`, `#rrggbb`, `rgb(r, g, b)` or a common colour name; `fallback` for anything else or nothing. */
export function cssColor(value: string | null, fallback: RGB): RGB {
  if (value === null) return fallback;
  const s = value.trim().toLowerCase();
  const named = NAMED[s];
  if (named) return fromHex(named.slice(1)) ?? fallback;
  if (s.startsWith('#')) return fromHex(s.slice(1)) ?? fallback;
  return fromRgbFunction(s) ?? fallback;
}
