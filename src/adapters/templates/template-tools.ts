/**
 * The tools a template may call, `$tools.<name>(…)`: a fixed Map from name to a function of strings that
 * returns a string. Nothing else is callable; the Map is never handed to a template, only looked up by the
 * interpreter with a name the compiler already checked.
 */
import { unescapeHtml } from './template-data.js';

export type Tool = (args: readonly string[]) => string;

const SURROGATE = /[\ud800-\udfff]/;
/** Lone surrogates (which `encodeURIComponent` throws on) become U+FFFD. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `urlEncode(value)`: the value as given (HTML escaping undone), percent-encoded for a URL's query. */
const urlEncode: Tool = ([value = '']) => {
  const text = unescapeHtml(value);
  return encodeURIComponent(SURROGATE.test(text) ? text.replace(LONE_SURROGATE, '\ufffd') : text);
};

export const TOOLS: ReadonlyMap<string, Tool> = new Map([['urlEncode', urlEncode]]);
export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.keys());
