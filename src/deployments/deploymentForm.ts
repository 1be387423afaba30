// The new-deployment form's values, checks and request (docs/deployments.md "Deployments"), as pure
// functions: the form keeps flat values (a fleet tree selection, waves as typed text) and sends the
// API's body; the server's issues come back onto the inputs that hold their fields.
import { DEPLOYMENT_DEFAULTS, DEPLOYMENT_LIMITS } from '../../resources/deployment';
import { buildTree, checkState, type TreeNode } from '../generic/tree';
import type { GateConfig, DeploymentTargets } from './types';

export type WaveMode = 'percentages' | 'sizes';

export interface DeploymentFormValues {
  packageId: number | null;
  machineIds: number[];
  /** The fleet tree's checked nodes (parents of checked nodes included, as the tree input stores them). */
  fleetSelection: number[];
  models: string[];
  /** null or '' (the select's empty choice): none. */
  savedFilterId: number | '' | null;
  waveMode: WaveMode;
  /** Waves as typed: "1, 10, 50, 100" (cumulative %) or "5, 20" (machines per wave). */
  waveText: string;
  successThreshold: number;
  errorThreshold: number;
  gateEnabled: boolean;
  gate: GateConfig;
  requiresApproval: boolean;
}

/** What the gate asks for when it is switched on (the operator changes it). */
export const GATE_DEFAULTS: GateConfig = { windowMinutes: 60, maxRejectRateIncrease: 5, maxSessionsDrop: 20 };

/** Wave presets offered as buttons: cumulative percentages. */
export const WAVE_PRESETS: readonly (readonly number[])[] = [DEPLOYMENT_DEFAULTS.waves, [10, 50, 100], [100]];

export const wavesText = (waves: readonly number[]) => waves.join(', ');

export const initialValues = (preset: { packageId?: number; models?: readonly string[] } = {}): DeploymentFormValues => ({
  packageId: preset.packageId ?? null,
  machineIds: [],
  fleetSelection: [],
  models: [...(preset.models ?? [])],
  savedFilterId: null,
  waveMode: 'percentages',
  waveText: wavesText(DEPLOYMENT_DEFAULTS.waves),
  successThreshold: DEPLOYMENT_DEFAULTS.successThreshold,
  errorThreshold: DEPLOYMENT_DEFAULTS.errorThreshold,
  gateEnabled: false,
  gate: { ...GATE_DEFAULTS },
  requiresApproval: false,
});

/** The typed numbers, or null when one is no whole number. Separators: commas, spaces, arrows, % signs. */
export const parseWaves = (text: string): number[] | null => {
  const parts = text.split(/[\s,;，、→>%]+/).filter(Boolean);
  if (parts.length === 0) return null;
  return parts.every((part) => /^\d{1,6}$/.test(part)) ? parts.map(Number) : null;
};

/** The i18n key of what is wrong with the typed waves, or undefined. */
export const waveProblem = (mode: WaveMode, text: string): string | undefined => {
  const waves = parseWaves(text);
  if (!waves) return 'deployments.form.validation.wavesNumbers';
  if (waves.length > DEPLOYMENT_LIMITS.maxWaves) return 'deployments.form.validation.wavesTooMany';
  if (mode === 'sizes') return waves.every((size) => size >= 1) ? undefined : 'deployments.form.validation.sizesPositive';
  const ascending = waves.every((value, index) => value >= 1 && value <= 100 && (index === 0 || value > waves[index - 1]));
  if (!ascending) return 'deployments.form.validation.percentAscending';
  return waves[waves.length - 1] === 100 ? undefined : 'deployments.form.validation.percentEnd';
};

interface FleetRecord {
  id: number;
  parentId?: number | null;
}

/**
 * The fleets to send: the topmost fully checked ones (the server adds sub-fleets). A half-checked parent
 * is in the tree's value but must not be sent: it would bring all its sub-fleets.
 */
export const fleetIdsOf = (selection: readonly number[], fleets: readonly FleetRecord[]): number[] => {
  if (selection.length === 0) return [];
  const selected = new Set(selection.map(String));
  const ids: number[] = [];
  const visit = (nodes: readonly TreeNode<FleetRecord>[]) => {
    for (const node of nodes) {
      if (checkState(node, selected) === 'checked') ids.push(Number(node.id));
      else visit(node.children);
    }
  };
  visit(buildTree(fleets, 'parentId'));
  return ids;
};

export const targetsOf = (values: DeploymentFormValues, fleets: readonly FleetRecord[]): DeploymentTargets => {
  const fleetIds = fleetIdsOf(values.fleetSelection, fleets);
  return {
    ...(values.machineIds.length ? { machineIds: values.machineIds.map(Number) } : {}),
    ...(fleetIds.length ? { fleetIds } : {}),
    ...(values.models.length ? { models: values.models } : {}),
    ...(values.savedFilterId ? { savedFilterId: Number(values.savedFilterId) } : {}),
  };
};

export const hasTargets = (targets: DeploymentTargets) => Object.keys(targets).length > 0;

/** The waves to send: percentages or sizes, nothing while the typed text is wrong. */
export const wavePlanOf = (values: Pick<DeploymentFormValues, 'waveMode' | 'waveText'>): { waves: number[] } | { waveSizes: number[] } | Record<string, never> => {
  const waves = parseWaves(values.waveText ?? '');
  if (!waves || waveProblem(values.waveMode, values.waveText ?? '')) return {};
  return values.waveMode === 'sizes' ? { waveSizes: waves } : { waves };
};

/** The body of `POST /deployment`. */
export const requestBody = (values: DeploymentFormValues, fleets: readonly FleetRecord[]) => {
  return {
    packageId: Number(values.packageId),
    targets: targetsOf(values, fleets),
    ...wavePlanOf(values),
    successThreshold: Number(values.successThreshold),
    errorThreshold: Number(values.errorThreshold),
    ...(values.gateEnabled
      ? {
          gate: {
            windowMinutes: Number(values.gate.windowMinutes),
            maxRejectRateIncrease: Number(values.gate.maxRejectRateIncrease),
            maxSessionsDrop: Number(values.gate.maxSessionsDrop),
          },
        }
      : {}),
    requiresApproval: Boolean(values.requiresApproval),
  };
};

/** Form-level checks the inputs' own validators cannot make (message keys, translated by the inputs). */
export const validateForm = (values: DeploymentFormValues): Record<string, string> => {
  const errors: Record<string, string> = {};
  if (!values.packageId) errors.packageId = 'deployments.form.validation.packageRequired';
  const problem = waveProblem(values.waveMode, values.waveText ?? '');
  if (problem) errors.waveText = problem;
  return errors;
};

/** Where an issue of the API's body is shown: the form input holding that field, else above the buttons. */
export const formFieldOf = (field: string): string => {
  if (field === 'packageId') return 'packageId';
  if (field === 'targets') return 'targets';
  if (field.startsWith('targets.machineIds')) return 'machineIds';
  if (field.startsWith('targets.fleetIds')) return 'fleetSelection';
  if (field.startsWith('targets.models')) return 'models';
  if (field.startsWith('targets.savedFilterId')) return 'savedFilterId';
  if (field.startsWith('waves') || field.startsWith('waveSizes')) return 'waveText';
  if (['successThreshold', 'errorThreshold', 'requiresApproval'].includes(field)) return field;
  if (/^gate\.(windowMinutes|maxRejectRateIncrease|maxSessionsDrop)$/.test(field)) return field;
  if (field === 'gate') return 'gateEnabled';
  return 'root.serverError';
};

/** The server's refusal as react-hook-form errors (nested paths as objects, as react-admin sets them). */
export const submissionErrors = (code: string, message: string, issues: ReadonlyArray<{ field: string; message: string }>): Record<string, unknown> => {
  const flat = new Map<string, string>();
  for (const issue of issues) {
    const at = formFieldOf(issue.field);
    if (!flat.has(at)) flat.set(at, at === 'root.serverError' ? `${message}: ${issue.message}` : issue.message);
  }
  if (issues.length === 0) flat.set(code === '8100' ? 'packageId' : code === '6001' ? 'machineIds' : 'root.serverError', message);
  const errors: Record<string, unknown> = {};
  for (const [path, text] of flat) {
    const [head, tail] = path.split('.');
    if (tail === undefined) errors[head] = text;
    else errors[head] = { ...(errors[head] as Record<string, string> | undefined), [tail]: text };
  }
  return errors;
};
