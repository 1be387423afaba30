// The versions a machine runs and their history (docs/deployments.md "Versions"): its software version
// comes from its hello and from applied software packages; every applied package of another resource type
// is kept per type. A history row is written only when the version changes, in the caller's transaction,
// in one statement that reads the previous version as it was before the change.
import { sql } from 'drizzle-orm';
import type { ResourceType } from '../../resources/deploymentPackage';
import type { Db } from '../db/client';

export interface VersionChange {
  rvmId: number;
  licenseAccountId: number;
  resourceType: ResourceType;
  version: string;
  source: 'hello' | 'deployment';
  deploymentTargetId?: number | null;
  at: Date;
}

export const recordVersion = async (tx: Db, change: VersionChange): Promise<void> => {
  const { rvmId, licenseAccountId, resourceType, version, source, at } = change;
  const target = change.deploymentTargetId ?? null;
  const when = at.toISOString();
  if (resourceType === 'software') {
    // The machine's softwareVersion is the profile field the console shows and filters on.
    await tx.execute(sql`
      with before as (select software_version as version from rvm where id = ${rvmId}),
      changed as (
        update rvm set software_version = ${version}
        where id = ${rvmId} and software_version is distinct from ${version}
        returning id
      )
      insert into rvm_version_history (rvm_id, license_account_id, resource_type, version, previous_version, source, deployment_target_id, changed_time)
      select ${rvmId}, ${licenseAccountId}, 'software', ${version}, before.version, ${source}, ${target}, ${when}::timestamptz
      from before, changed`);
    return;
  }
  await tx.execute(sql`
    with before as (
      select (select version from rvm_version_history
        where rvm_id = ${rvmId} and resource_type = ${resourceType}
        order by changed_time desc, id desc limit 1) as version
    )
    insert into rvm_version_history (rvm_id, license_account_id, resource_type, version, previous_version, source, deployment_target_id, changed_time)
    select ${rvmId}, ${licenseAccountId}, ${resourceType}, ${version}, before.version, ${source}, ${target}, ${when}::timestamptz
    from before where before.version is distinct from ${version}`);
};
