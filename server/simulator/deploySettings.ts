// The simulator's deployment settings from the environment (README, settings table): failure rates
// SIMULATE_DEPLOY_* (0-1, the demo's small defaults when unset) and SIMULATE_BAD_PACKAGES (names,
// comma-separated). `npm start -- --simulate` and `npm run simulate` both read them.
import { DEMO_DEPLOY_FAULTS, type DeployFaults } from './deploy';

export interface DeploySimulation {
  deployFaults: DeployFaults;
  badPackages: string[];
}

/** Each failure mode's environment variable and command-line option. */
export const DEPLOY_FAULT_SETTINGS: Record<keyof DeployFaults, { env: string; option: string }> = {
  broken: { env: 'SIMULATE_DEPLOY_BROKEN', option: 'deploy-broken' },
  checksum: { env: 'SIMULATE_DEPLOY_CHECKSUM', option: 'deploy-checksum' },
  applyFailure: { env: 'SIMULATE_DEPLOY_APPLY_FAILURE', option: 'deploy-apply-failure' },
  silent: { env: 'SIMULATE_DEPLOY_SILENT', option: 'deploy-silent' },
};

/** A share 0-1; throws with the setting's name otherwise. */
export const parseRate = (name: string, text: string): number => {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) throw new Error(`${name} must be a number between 0 and 1 (got ${text})`);
  return value;
};

export const parseNames = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);

export const deploySimulationFromEnv = (env: Record<string, string | undefined>): DeploySimulation => {
  const deployFaults = { ...DEMO_DEPLOY_FAULTS };
  for (const [mode, { env: name }] of Object.entries(DEPLOY_FAULT_SETTINGS) as Array<[keyof DeployFaults, { env: string }]>) {
    const text = env[name];
    if (text !== undefined && text !== '') deployFaults[mode] = parseRate(name, text);
  }
  return { deployFaults, badPackages: parseNames(env.SIMULATE_BAD_PACKAGES) };
};
