// Every declaration of the APIs area (docs/api-hookups.md), in menu order.
import type { ResourceDeclaration } from './types';
import { HOOKUP_APPS } from './hookupApp';
import { HOOKUP_SUBSCRIPTIONS } from './hookupSubscription';
import { HOOKUP_MESSAGES } from './hookupMessage';
import { notificationList, tcRvmList, tcTransactionList } from './hookupLists';
import { HOOKUP_FAMILIES } from './hookupCatalogue';

export const HOOKUP_RESOURCES: readonly ResourceDeclaration[] = [
  ...HOOKUP_FAMILIES.flatMap((family) => [HOOKUP_SUBSCRIPTIONS[family], HOOKUP_MESSAGES[family], HOOKUP_APPS[family]]),
  tcRvmList,
  tcTransactionList,
  notificationList,
];
