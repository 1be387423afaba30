// The app for the benchmark, with an inject that takes API paths without the prefix.
import type { InjectOptions } from 'fastify';
import { API_PREFIX, buildApp, type BuildAppOptions } from '../server/app';

export const buildFleetApp = async (options: BuildAppOptions) => {
  const app = await buildApp(options);
  return {
    app,
    inject: (request: InjectOptions & { url: string }) => app.inject({ ...request, url: `${API_PREFIX}${request.url}` }),
    close: () => app.close(),
  };
};
