// endProcessGroup (tests/robust/processGroup.ts): the Lighthouse suite removes Chromium's profile only once every
// process of its group has ended, helpers included; a helper that ignores SIGTERM is killed at the deadline.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { endProcessGroup, groupAlive } from '../robust/processGroup';

/** A shell (the group's leader) with two children in its group; `trap '' TERM` makes them ignore SIGTERM. */
const startGroup = (ignoreTerm: boolean) => {
  const script = `${ignoreTerm ? "trap '' TERM; " : ''}sleep 300 & sleep 300 & echo started; wait`;
  const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  const started = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { pgid: child.pid!, started };
};

describe.skipIf(process.platform === 'win32')('endProcessGroup', () => {
  it('ends the leader and its children, and answers only once none is left', async () => {
    const { pgid, started } = startGroup(false);
    await started;
    expect(groupAlive(pgid)).toBe(true);
    await endProcessGroup(pgid, 20_000);
    expect(groupAlive(pgid)).toBe(false);
  });

  it('kills what ignores SIGTERM once the time-out has passed', async () => {
    const { pgid, started } = startGroup(true);
    await started;
    const begun = Date.now();
    await endProcessGroup(pgid, 300);
    expect(groupAlive(pgid)).toBe(false);
    expect(Date.now() - begun).toBeGreaterThanOrEqual(300);
  });

  it('does nothing for a group that has already ended', async () => {
    const { pgid, started } = startGroup(false);
    await started;
    process.kill(-pgid, 'SIGKILL');
    await endProcessGroup(pgid, 20_000);
    expect(groupAlive(pgid)).toBe(false);
  });
});
