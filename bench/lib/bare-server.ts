/**
 * The reference server of the benchmarks: bare node:http answering every request, once its body is
 * read, with a constant JSON body. Forked by references.ts; sends `{ port }` to its parent when listening.
 */
import http from 'node:http';

const BODY = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', status: 'WAIT' });

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': BODY.length });
    res.end(BODY);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send!({ port: (server.address() as { port: number }).port });
});
process.on('message', (m) => {
  if (m === 'stop') server.close(() => process.exit(0));
});
