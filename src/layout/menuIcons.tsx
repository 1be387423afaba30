// Menu `icon` names (resources/menu.ts) -> MUI icons. Entries without an icon get a small dot so
// the collapsed sidebar still has something to hover and focus.
import type { SvgIconComponent } from '@mui/icons-material';
import HomeIcon from '@mui/icons-material/Home';
import DashboardIcon from '@mui/icons-material/Dashboard';
import QuarantineIcon from '@mui/icons-material/GppMaybe';
import SearchIcon from '@mui/icons-material/Search';
import InstallationIcon from '@mui/icons-material/PrecisionManufacturing';
import FleetIcon from '@mui/icons-material/LocalShipping';
import ReportsIcon from '@mui/icons-material/Assessment';
import ServiceIcon from '@mui/icons-material/Build';
import PromotionIcon from '@mui/icons-material/Campaign';
import ApisIcon from '@mui/icons-material/Api';
import SettingsIcon from '@mui/icons-material/Settings';
import AccountIcon from '@mui/icons-material/AccountBalance';
import UsersIcon from '@mui/icons-material/People';
import RoleIcon from '@mui/icons-material/Badge';
import PermissionIcon from '@mui/icons-material/VpnKey';
import AuditLogIcon from '@mui/icons-material/History';
import MailOutboxIcon from '@mui/icons-material/Outbox';
import ResourceTypesIcon from '@mui/icons-material/Schema';
import DotIcon from '@mui/icons-material/Circle';
import type { MenuNode } from '../../resources/menu';

const ICONS: Record<string, SvgIconComponent> = {
  home: HomeIcon,
  dashboard: DashboardIcon,
  quarantine: QuarantineIcon,
  search: SearchIcon,
  installation: InstallationIcon,
  fleet: FleetIcon,
  reports: ReportsIcon,
  service: ServiceIcon,
  promotion: PromotionIcon,
  apis: ApisIcon,
  systemSettings: SettingsIcon,
};

// System settings children have no `icon` in the menu declaration but well-known meanings.
const BY_KEY: Record<string, SvgIconComponent> = {
  account: AccountIcon,
  user: UsersIcon,
  role: RoleIcon,
  permission: PermissionIcon,
  resourceTypes: ResourceTypesIcon,
  auditLog: AuditLogIcon,
  mailOutbox: MailOutboxIcon,
};

export const MenuIcon = ({ node }: { node: MenuNode }) => {
  const Icon = (node.icon && ICONS[node.icon]) || BY_KEY[node.key];
  if (Icon) return <Icon fontSize="small" />;
  return <DotIcon sx={{ fontSize: 8, mx: '6px' }} />;
};
