// Requests Node's HTTP parser refuses before Fastify sees them (a head over 16 KB, a malformed request
// line, a client too slow to send its head) still answer the envelope, never Fastify's own JSON. The
// head was not read, so the language is unknown: English.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { translate } from '../../i18n';

const statusOf = (code: string | undefined) => (code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400);

export const clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']> = function (error, socket: Socket) {
  // A reset connection has nobody left to answer.
  if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || socket.destroyed) return;
  const status = statusOf((error as NodeJS.ErrnoException).code);
  const body = JSON.stringify({ resCode: '1004', resMsg: translate('en', 'errors.1004'), resData: null });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
};
