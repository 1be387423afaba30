// Preloaded into the server by bench/profileCall.ts (`node --import`): SIGUSR2 starts V8's CPU profiler,
// SIGUSR1 stops it and writes the profile to PROFILE_OUT, so only the measured load is profiled (not start-up).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const session = new Session();
session.connect();
process.on('SIGUSR2', () => session.post('Profiler.enable', () => session.post('Profiler.start')));
process.on('SIGUSR1', () =>
  session.post('Profiler.stop', (error, result) => {
    if (!error && process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(result.profile));
  }),
);
