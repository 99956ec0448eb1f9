/** A real SMTP server in the test process (the `smtp-server` package); every mail parsed with `mailparser`. */
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  readonly url: string;
  readonly port: number;
  readonly received: ParsedMail[];
  /** Envelope recipients of each mail, in order. */
  readonly envelopes: string[][];
  stop(): Promise<void>;
  /** Listens again on the same port (after `stop`, to end an outage). */
  restart(): Promise<void>;
}

export async function startSmtp(port = 0): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const envelopes: string[][] = [];
  let server = makeServer(received, envelopes);
  const listen = (p: number) =>
    new Promise<number>((resolve) =>
      server.listen(p, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port)),
    );
  const actual = await listen(port);
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    received,
    envelopes,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    restart: async () => {
      server = makeServer(received, envelopes);
      await listen(actual);
    },
  };
}

function makeServer(received: ParsedMail[], envelopes: string[][]): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          envelopes.push(session.envelope.rcptTo.map((r) => r.address));
          done();
        })
        .catch(done);
    },
  });
}
