/** Core code uses node's global `Buffer`; the bundler injects this one (the `buffer` package) in the browser. */
export { Buffer } from 'buffer';
