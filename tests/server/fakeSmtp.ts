// A minimal SMTP server for tests (no TLS, no auth): enough of RFC 5321 for nodemailer to deliver to
// it, keeping every message's raw text. `down = true` makes it refuse connections with 421, as a mail
// server that is out of service does, and `refuse` refuses single recipients with 550, so the real SMTP
// failure paths of server/mail/mailer.ts run.
import { createServer, type Server, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The DATA section as sent (headers, MIME parts, base64 attachments). */
  raw: string;
}

export interface FakeSmtp {
  url: string;
  received: ReceivedMail[];
  down: boolean;
  /** Recipients refused with 550 (a mailbox that does not exist). */
  refuse: Set<string>;
  close(): Promise<void>;
}

const serve = (socket: Socket, smtp: FakeSmtp) => {
  if (smtp.down) {
    socket.end('421 4.3.2 service not available\r\n');
    return;
  }
  let buffer = '';
  let inData = false;
  let current: ReceivedMail = { from: '', to: [], raw: '' };
  const reply = (line: string) => socket.write(`${line}\r\n`);
  reply('220 fake.smtp ready');
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    for (;;) {
      if (inData) {
        const end = buffer.indexOf('\r\n.\r\n');
        if (end < 0) return;
        current.raw = buffer.slice(0, end);
        buffer = buffer.slice(end + 5);
        inData = false;
        smtp.received.push(current);
        current = { from: '', to: [], raw: '' };
        reply('250 2.0.0 queued');
        continue;
      }
      const newline = buffer.indexOf('\r\n');
      if (newline < 0) return;
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 2);
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === 'EHLO' || verb === 'HELO') reply('250 fake.smtp');
      else if (verb === 'MAIL') {
        current.from = line.slice(10).replace(/[<>]/g, '').trim();
        reply('250 2.1.0 ok');
      } else if (verb === 'RCPT') {
        const to = line.slice(8).replace(/[<>]/g, '').trim();
        if (smtp.refuse.has(to)) reply('550 5.1.1 no such mailbox');
        else {
          current.to.push(to);
          reply('250 2.1.5 ok');
        }
      } else if (verb === 'DATA') {
        inData = true;
        reply('354 end with <CRLF>.<CRLF>');
      } else if (verb === 'QUIT') {
        socket.end('221 2.0.0 bye\r\n');
        return;
      } else reply('250 ok');
    }
  });
  socket.on('error', () => undefined);
};

export const startFakeSmtp = async (): Promise<FakeSmtp> => {
  const sockets = new Set<Socket>();
  const smtp: FakeSmtp = { url: '', received: [], down: false, refuse: new Set(), close: async () => undefined };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serve(socket, smtp);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('fake SMTP: no port');
  smtp.url = `smtp://127.0.0.1:${address.port}`;
  smtp.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return smtp;
};
