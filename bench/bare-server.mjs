// The reference server of the benchmarks: node:http reading the whole body and answering a small JSON
// object, nothing else. Forked by bench/lib/references.ts; sends its port to the parent, stops on 'stop'.
import http from 'node:http';

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"statusCode":404,"code":"NOT_FOUND","error":"Not Found"}');
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m === 'stop') server.close(() => process.exit(0));
});
