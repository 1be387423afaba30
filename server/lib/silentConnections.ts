// Shutdown must not wait for a connection that never sent a request (a browser's speculative pre-connect, a
// health checker's bare TCP probe): Node's server.close() waits for it, and Fastify's idle-connection closing
// does not count it as idle, so `app.close()` (and a stopping `npm start`) waited for as long as the client
// kept it open (measured: over 170 s). Such a connection carries no work; when the app closes it is ended, and
// one opened while closing is ended at once. Connections with a request in flight finish as before.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export const endSilentConnectionsOnClose = (app: FastifyInstance) => {
  const silent = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    silent.add(socket);
    socket.once('close', () => silent.delete(socket));
  });
  app.server.on('request', (request) => silent.delete(request.socket));
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of silent) socket.destroy();
    silent.clear();
  });
};
