// System settings › Resource types (issue 9; superAdmin only): the configured types and their editor.
// Routes below the menu route: '' the list, 'create' a new type, ':name' an existing one.
import { Loading, usePermissions } from 'react-admin';
import { Navigate, Route, Routes } from 'react-router-dom';
import type { ScreenProps } from '../pages/screenProps';
import type { UserInfo } from '../providers/session';
import { TypeEditor } from './TypeEditor';
import { TypesList } from './TypesList';

const ResourceTypesPage = ({ node }: ScreenProps) => {
  const { permissions, isPending } = usePermissions<UserInfo | null>();
  if (isPending) return <Loading />;
  if (!permissions?.superAdmin) return <Navigate to="/401" replace />;
  return (
    <Routes>
      <Route index element={<TypesList node={node} />} />
      <Route path="create" element={<TypeEditor />} />
      <Route path=":name" element={<TypeEditor />} />
    </Routes>
  );
};

export default ResourceTypesPage;
