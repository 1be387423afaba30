// Console routes of Service › Setup (its two tabs), Software upgrade and AI (docs/deployments.md).
export const SETUP_ROUTE = '/service/setup';
export const DEPLOYMENTS_ROUTE = `${SETUP_ROUTE}/deployments`;
export const SOFTWARE_UPGRADE_ROUTE = '/service/softwareUpgrade';
export const AI_ROUTE = '/service/ai';

// one path for every link to a deployment's page (the machine page's version history links there too)
export { deploymentPath } from '../kit/QueryPagedTable';

/** The new-deployment form, optionally with a package and models chosen (Software upgrade's "Start upgrade"). */
export const newDeploymentPath = (preset: { packageId?: number; models?: readonly string[] } = {}) => {
  const query = new URLSearchParams();
  if (preset.packageId !== undefined) query.set('packageId', String(preset.packageId));
  if (preset.models?.length) query.set('models', preset.models.join(','));
  const text = query.toString();
  return `${DEPLOYMENTS_ROUTE}/create${text ? `?${text}` : ''}`;
};

/** The preset of the new-deployment form's address (unknown or malformed values are ignored). */
export const presetOf = (search: string): { packageId?: number; models: string[] } => {
  const query = new URLSearchParams(search);
  const id = Number(query.get('packageId'));
  const models = (query.get('models') ?? '')
    .split(',')
    .map((model) => model.trim())
    .filter(Boolean);
  return { ...(Number.isInteger(id) && id > 0 ? { packageId: id } : {}), models };
};

/** A deployment id from a route segment: a positive whole number, else null (shown as not found). */
export const parseDeploymentId = (segment: string | undefined): number | null => {
  if (!segment || !/^\d{1,9}$/.test(segment)) return null;
  const id = Number(segment);
  return id >= 1 ? id : null;
};
