// The report and event notification screens (customViews of resources/reportNotification.ts and
// resources/eventNotification.ts): the generic list, record page and edit form, plus "send now" on each
// row and in the record's toolbar. Lazy, like the generic views (issue 8).
import { lazy } from 'react';

type ConfirmText = 'notifications.sendNow.confirmReport' | 'notifications.sendNow.confirmEvent';

const listWithSendNow = (confirm: ConfirmText) =>
  lazy(() =>
    Promise.all([import('../generic/GenericList'), import('./SendNowButton')]).then(([{ GenericList }, { SendNowButton }]) => ({
      default: () => <GenericList rowActions={<SendNowButton confirm={confirm} />} />,
    })),
  );

const showWithSendNow = (confirm: ConfirmText) =>
  lazy(() =>
    Promise.all([import('../generic/GenericShow'), import('./SendNowButton')]).then(([{ GenericShow }, { SendNowButton }]) => ({
      default: () => <GenericShow actions={<SendNowButton confirm={confirm} labelled />} />,
    })),
  );

const editWithSendNow = (confirm: ConfirmText) =>
  lazy(() =>
    Promise.all([import('../generic/GenericForm'), import('./SendNowButton')]).then(([{ GenericEdit }, { SendNowButton }]) => ({
      default: () => <GenericEdit actions={<SendNowButton confirm={confirm} labelled />} />,
    })),
  );

export const NOTIFICATION_VIEWS = {
  reportNotificationList: listWithSendNow('notifications.sendNow.confirmReport'),
  reportNotificationShow: showWithSendNow('notifications.sendNow.confirmReport'),
  reportNotificationEdit: editWithSendNow('notifications.sendNow.confirmReport'),
  eventNotificationList: listWithSendNow('notifications.sendNow.confirmEvent'),
  eventNotificationShow: showWithSendNow('notifications.sendNow.confirmEvent'),
  eventNotificationEdit: editWithSendNow('notifications.sendNow.confirmEvent'),
};
