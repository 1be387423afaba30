// `npm start`: runs the compiled server (dist-server/server.js) in this process, building first only when
// the build is missing or older than the sources (build stamp: scripts/buildStamp.mjs, ~30 ms to check).
// A production install (`npm ci --omit=dev`) has no vite or esbuild: it runs the build it was shipped
// with, and refuses to start without one.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, SERVER_OUT_DIR, staleReason } from './buildStamp.mjs';
import { stopWhenOrphaned } from './stopWhenOrphaned.mjs';

const canBuild = async () => {
  try {
    await import('esbuild');
    await import('vite');
    return true;
  } catch {
    return false;
  }
};

// Run by npm (`npm start`): if npm goes away (killed, or its shell), this process is handed to another
// parent and would keep the ports; it stops instead, as if it had been sent the signal itself.
if (process.env.npm_lifecycle_event) {
  stopWhenOrphaned(() => {
    console.log('[start] npm is gone: stopping the server');
    process.kill(process.pid, 'SIGTERM');
  });
}

const reason = staleReason();
if (reason) {
  if (await canBuild()) {
    console.log(`[start] building (${reason})`);
    // a child process: the build's memory (vite, esbuild) is not kept by the server
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  } else if (reason === 'sources changed since the last build') {
    // a deployment may ship the build without the sources: nothing to say then
    if (existsSync(join(ROOT, 'server')))
      console.warn('[start] the sources differ from the shipped build and the build tools (dev dependencies) are not installed: starting the shipped build');
  } else {
    console.error(`[start] ${reason}, and the build tools (dev dependencies) are not installed: run \`npm install && npm run build\` first`);
    process.exit(1);
  }
}
process.setSourceMapsEnabled(true);
// Node 22.1+: V8's compiled code of the server and its packages is kept on disk between starts (os.tmpdir()).
module.enableCompileCache?.();
await import(pathToFileURL(join(SERVER_OUT_DIR, 'server.js')).href);
