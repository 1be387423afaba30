// Labels of the audit log declaration (resources/auditLog.ts, docs/audit-log.md), merged into `resources`,
// and the texts of its show view (src/resources/AuditLogShow.tsx).
import { remote } from './remote';

/** A command's label mid-sentence: "Restart C750" reads "restart C750", "UI service reset" keeps its capitals. */
const midSentence = (label: string) => (/^[A-Z][a-z]/.test(label) ? label[0].toLowerCase() + label.slice(1) : label);
/** `command.<name>`: one per remote command, from its label in remote.ts (so a new command needs none here). */
const commandActions = Object.fromEntries(Object.entries(remote.commands).map(([name, label]) => [name, `Command: ${midSentence(label)}`])) as {
  readonly [Name in keyof typeof remote.commands]: string;
};

export const auditResources = {
  auditLog: {
    name: 'Audit log entry |||| Audit log',
    fields: {
      id: 'ID',
      time: 'Time',
      userName: 'User',
      userId: 'User ID',
      action: 'Action',
      resource: 'Resource',
      recordId: 'Record ID',
      outcome: 'Outcome',
      address: 'IP address',
      changes: 'Changes',
      details: 'Details',
    },
    filters: {
      timeFrom: 'From',
      timeTo: 'Until',
      userNameLike: 'User',
      action: 'Action',
      resource: 'Resource',
      recordId: 'Record ID',
      address: 'IP address',
      outcome: 'Outcome',
    },
    enums: {
      action: {
        create: 'Create',
        update: 'Update',
        delete: 'Delete',
        signIn: 'Sign in',
        signOut: 'Sign out',
        passwordChange: 'Password change',
        passwordReset: 'Password reset by an administrator',
        passwordResetByLink: 'Password reset by e-mail link',
        // `command.<name>`: the remote commands (resources/commands.ts)
        command: { ...commandActions, cancel: 'Command cancelled' },
        gateway: {
          rotateSecret: "Rotate an RVM's gateway secret",
          rotateEnrollmentKey: 'Rotate the enrollment key',
        },
      },
      resource: {
        account: 'License account',
        user: 'User',
        role: 'Role',
        permission: 'Permission',
        fleet: 'Fleet',
        machine: 'RVM',
        eventNotification: 'Event notification',
        reportNotification: 'Report notification',
        deploymentPackage: 'Package',
        deployment: 'Deployment',
        refund: 'Refund value',
        assortment: 'Product',
        sorting: 'Sorting rule',
        mainConfig: 'Main config',
        servicePersonnel: 'Service person',
        personnelAccessLevel: 'Personnel setting',
        consumerBan: 'Ban',
        promotionResource: 'Promotion resource',
        promotionOption: 'Promotion option',
        promotionItem: 'Promotion item',
        defaultPromotion: 'Default promotion',
        csThridApp: 'Consumer session app',
        ciThridApp: 'Collection app',
        statusThridApp: 'Machine status app',
        csApi: 'Consumer session subscription',
        ciApi: 'Collection subscription',
        statusApi: 'Machine status subscription',
        csApiTransaction: 'Consumer session messages',
        ciApiTransaction: 'Collection messages',
        statusApiTransaction: 'Machine status messages',
        resourceType: 'Resource type',
        savedFilter: 'Saved filter',
      },
      outcome: {
        success: 'Succeeded',
        failure: 'Failed',
        queued: 'Queued',
        partial: 'Partly queued',
        refused: 'Refused',
        cancelled: 'Cancelled',
        done: 'Done',
      },
    },
    view: {
      field: 'Field',
      before: 'Before',
      after: 'After',
      redacted: 'changed (value not recorded)',
      noChanges: 'No field changed',
      // names in an entry's details (a command's target and parameters, a failed sign-in's reason)
      detailKeys: {
        rvmIds: 'RVMs',
        batchId: 'Batch',
        commandIds: 'Commands',
        resendOf: 'Resend of',
        params: 'Parameters',
        refused: 'Refused',
        command: 'Command',
        reason: 'Reason',
        locked: 'Locked by this failure',
      },
      reasons: {
        unknownUser: 'Unknown user name',
        wrongPassword: 'Wrong password',
        disabled: 'User disabled',
      },
    },
  },
} as const;
