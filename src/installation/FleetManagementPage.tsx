// /installation/fleetManagement (docs/product-rules.md#menu-tree): the fleet tree beside the machine list. The list is the
// machine declaration's generic list (filters, saved filters, export, column chooser); selecting a
// fleet sets its fleet filter (the server includes sub-fleets), kept in the URL like every list filter.
import { CanAccess, ResourceContextProvider, useCanAccess, useCanAccessResources, useStore, useTranslate } from 'ra-core';
import { useLocation, useNavigate } from 'react-router-dom';
import { Alert, Box, IconButton, Paper, Tooltip } from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { RESOURCES } from '../../resources';
import { fleet } from '../../resources/fleet';
import { machine } from '../../resources/machine';
import type { ResourceDeclaration } from '../../resources/types';
import { DeclarationProvider } from '../generic/DeclarationContext';
import { GenericList } from '../generic/GenericList';
import { resourceNameOf } from '../providers/registry';
import type { ScreenProps } from '../pages/screenProps';
import { identifierRequest } from '../permissions/canAccess';
import { REMOTE_CONTROL_PERMISSION } from '../remote/commandTypes';
import { RemoteCommandBulkButton } from '../remote/RemoteCommandBulkButton';
import { ScreenHeading } from '../pages/ScreenHeading';
import { FleetTreePanel } from './fleet/FleetTreePanel';
import { searchWithFleet, selectedFleetOf } from './fleet/fleetTree';
import { MachineFilterChips } from '../dashboard/MachineFilterChips';

/**
 * The list as this screen shows it: a row opens the machine page (the generic list opens the edit
 * form when the user may edit; without `edit` it opens "show", which the machine declaration maps to
 * the machine page). Editing stays on the page's ProfileSetting tab and its "edit record" button.
 */
const MACHINE_LIST: ResourceDeclaration = { ...machine, permissions: { ...machine.permissions, edit: undefined } };

/**
 * Beside the tree the list is narrower than on a page of its own: its actions go above the filter
 * bar (which then has the whole width), and cells stay on one line with the table scrolling sideways.
 */
const LIST_LAYOUT_SX = {
  // nowrap: with the theme's wrapping list toolbar, a column would wrap the actions into a second
  // column beside the filters, past the window's right edge (Export out of sight at 1440 px)
  '& .RaList-actions': { flexDirection: 'column-reverse', alignItems: 'stretch', flexWrap: 'nowrap' },
  '& .RaDataTable-rowCell': { whiteSpace: 'nowrap' },
  // room for the fleet filter's label and chip
  '& .RaList-actions form .MuiAutocomplete-root': { minWidth: 260 },
  // The table scrolls inside a box that ends above the window's bottom, so its sideways scrollbar is in
  // sight without scrolling the page (10 columns do not fit 1280 px); the header row stays on top.
  '& .RaDataTable-tableWrapper': { maxHeight: 'calc(100vh - 340px)', minHeight: 240, overflow: 'auto' },
  '& .RaDataTable-headerCell': { position: 'sticky', top: 0, zIndex: 2, bgcolor: 'background.paper' },
} as const;

/** Where the tree's shown or hidden state is remembered (react-admin's store: per browser, across visits). */
const TREE_OPEN_KEY = 'fleetManagement.treeOpen';

const FleetManagementPage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const location = useLocation();
  const navigate = useNavigate();
  const selected = selectedFleetOf(location.search);
  const canCommand = useCanAccess(identifierRequest(REMOTE_CONTROL_PERMISSION)).canAccess === true;
  // GET /fleet/tree answers to either list permission
  const { canAccess: mayList } = useCanAccessResources({ action: 'list', resources: [resourceNameOf(fleet), resourceNameOf(machine)] });
  const mayOpenTree = Object.values(mayList ?? {}).some(Boolean);
  const select = (fleetId: number | null) => navigate({ pathname: location.pathname, search: searchWithFleet(location.search, fleetId) });
  // Hiding the tree gives the list its width (the chosen fleet stays as the list's filter).
  const [treeOpen, setTreeOpen] = useStore(TREE_OPEN_KEY, true);
  const treeToggle = (
    <Tooltip title={translate(treeOpen ? 'installation.fleet.hideTree' : 'installation.fleet.showTree')}>
      <IconButton
        size="small"
        onClick={() => setTreeOpen(!treeOpen)}
        aria-label={translate(treeOpen ? 'installation.fleet.hideTree' : 'installation.fleet.showTree')}
        aria-expanded={treeOpen}
        data-testid="fleet-tree-toggle"
      >
        {treeOpen ? <ChevronLeftIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
      </IconButton>
    </Tooltip>
  );

  return (
    <Box data-testid="fleet-management">
      <ScreenHeading node={node} />
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: treeOpen ? '300px minmax(0, 1fr)' : 'auto minmax(0, 1fr)' }, gap: 2, alignItems: 'start' }}>
        <Paper sx={{ p: treeOpen ? 1.5 : 0.5 }}>{mayOpenTree && (treeOpen ? <FleetTreePanel selected={selected} onSelect={select} titleAction={treeToggle} /> : treeToggle)}</Paper>
        <Box sx={{ minWidth: 0, ...LIST_LAYOUT_SX }} data-testid="machine-list">
          <CanAccess resource={resourceNameOf(machine)} action="list" accessDenied={<Alert severity="info">{translate('app.noPermission.message')}</Alert>}>
            {/* the applied filters as removable chips (what a dashboard card opened the list with) */}
            <MachineFilterChips declaration={MACHINE_LIST} registry={RESOURCES} />
            <ResourceContextProvider value={resourceNameOf(machine)}>
              <DeclarationProvider declaration={MACHINE_LIST} registry={RESOURCES}>
                <GenericList title={false} bulkActions={canCommand ? <RemoteCommandBulkButton /> : undefined} />
              </DeclarationProvider>
            </ResourceContextProvider>
          </CanAccess>
        </Box>
      </Box>
    </Box>
  );
};

export default FleetManagementPage;
