/** A local HTTP server answering GET /logo.png with a PNG (other paths: 404), counting the requests it got. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';

export interface LogoServer {
  readonly server: Server;
  /** The logo's URL on 127.0.0.1 (only an HTTP client allowing private URLs reaches it). */
  readonly url: string;
  readonly png: Buffer;
  hits(): number;
}

/** Starts the server on a free port of 127.0.0.1; close it with `server.close()`. */
export async function logoServer(): Promise<LogoServer> {
  const png = await QRCode.toBuffer('proofseal logo', { type: 'png', width: 96, color: { dark: '#1c4587' } });
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    res.writeHead(req.url === '/logo.png' ? 200 : 404, { 'content-type': 'image/png' }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/logo.png`;
  return { server, url, png, hits: () => hits };
}
