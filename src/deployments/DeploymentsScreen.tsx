// Service › Setup › Deployments, /service/setup/deployments: the deployment declaration's list view
// (`customViews`, so its route and `deployment:page` guard are the generic ones), which also serves
// the new-deployment form at .../create and a deployment's page at .../<id> (the declaration has no
// generic create, edit or show views that would claim these addresses).
import { lazy } from 'react';
import { CanAccess, Loading } from 'react-admin';
import { Navigate, Route, Routes } from 'react-router-dom';
import { ChunkSuspense } from '../pages/ChunkBoundary';
import { identifierRequest } from '../permissions/canAccess';
import { DeploymentList } from './DeploymentList';
import { DEPLOYMENT_PERMISSIONS } from './types';

const NewDeploymentPage = lazy(() => import('./NewDeploymentPage'));
const DeploymentPage = lazy(() => import('./DeploymentPage'));

const DeploymentsScreen = () => (
  <ChunkSuspense fallback={<Loading />}>
    <Routes>
      <Route index element={<DeploymentList />} />
      <Route
        path="create"
        element={
          <CanAccess {...identifierRequest(DEPLOYMENT_PERMISSIONS.add)} accessDenied={<Navigate to="/401" replace />}>
            <NewDeploymentPage />
          </CanAccess>
        }
      />
      <Route path=":deploymentId" element={<DeploymentPage />} />
    </Routes>
  </ChunkSuspense>
);

export default DeploymentsScreen;
