// System settings › Resource types (issue 9; superAdmin only): the configured types and their editor.
// Routes below the menu route: '' the list, 'create' a new type, ':name' an existing one. Its route guard
// (canAccess on the menu entry) refuses everyone but a superAdmin (SUPER_ADMIN_ROUTES of src/permissions/menuVisibility.ts).
import { Route, Routes } from 'react-router-dom';
import type { ScreenProps } from '../pages/screenProps';
import { TypeEditor } from './TypeEditor';
import { TypesList } from './TypesList';

const ResourceTypesPage = ({ node }: ScreenProps) => {
  return (
    <Routes>
      <Route index element={<TypesList node={node} />} />
      <Route path="create" element={<TypeEditor />} />
      <Route path=":name" element={<TypeEditor />} />
    </Routes>
  );
};

export default ResourceTypesPage;
