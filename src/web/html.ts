/** Escaping for the server-rendered pages: every dynamic value goes through `esc`. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value made safe to place in HTML. */
export function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
