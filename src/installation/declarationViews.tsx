// Views the fleet and machine declarations name in `customViews` (registered in src/resources): their
// generic list routes lead to the fleet management screen (which embeds the machine list and the
// fleet tree), and a machine's "show" is its machine page.
import { Navigate, useParams } from 'react-router-dom';
import { FLEET_MANAGEMENT_ROUTE, machinePagePath } from '../pages/machinePaths';

export const FleetManagementRedirect = () => <Navigate to={FLEET_MANAGEMENT_ROUTE} replace />;

export const MachinePageRedirect = () => {
  const { id } = useParams();
  return <Navigate to={id ? machinePagePath(id) : FLEET_MANAGEMENT_ROUTE} replace />;
};
