#!/usr/bin/env node
// A tiny static server for the custom signature page (any web server will do: these are three static files).
//   node examples/custom-signature-page/server.mjs [port]     (default 8090, listens on 127.0.0.1)
// Its own Content-Security-Policy lets the page call the proofseal API on another origin (connect-src).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const FILES = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/sign.js': ['sign.js', 'text/javascript; charset=utf-8'],
  '/style.css': ['style.css', 'text/css; charset=utf-8'],
};
const CSP =
  "default-src 'self'; connect-src 'self' http: https:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** Start the page's server on `port` (0: any free port) and resolve with it once it listens. */
export function startCustomPage(port = 8090, host = '127.0.0.1') {
  const server = createServer((req, res) => {
    const file = FILES[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file || req.method !== 'GET') {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': file[1],
      'content-security-policy': CSP,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    });
    res.end(readFileSync(path.join(import.meta.dirname, file[0])));
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startCustomPage(Number(process.argv[2] ?? 8090));
  const { port } = server.address();
  console.log(`custom signature page on http://127.0.0.1:${port}/ — set it as vars.signingURL of a request`);
}
