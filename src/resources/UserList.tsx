// The user list: the generic list plus the user row actions.
import { GenericList } from '../generic/GenericList';
import { UserRowActions } from './UserRowActions';

export const UserList = () => <GenericList rowActions={<UserRowActions />} />;
