// The icons of the remote commands (buttons of the RemoteControl tab and the bulk command picker): each
// catalogue entry names one (resources/commands.ts `icon`).
import type { SvgIconComponent } from '@mui/icons-material';
import BuildIcon from '@mui/icons-material/Build';
import DesktopWindowsIcon from '@mui/icons-material/DesktopWindows';
import DownloadIcon from '@mui/icons-material/Download';
import HeightIcon from '@mui/icons-material/Height';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import MedicalServicesIcon from '@mui/icons-material/MedicalServices';
import MemoryIcon from '@mui/icons-material/Memory';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import NumbersIcon from '@mui/icons-material/Numbers';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { commandDefinition, type CommandIcon, type RemoteCommand } from '../../resources/commands';

const ICONS: Readonly<Record<CommandIcon, SvgIconComponent>> = {
  restart: RestartAltIcon,
  lock: LockIcon,
  lockOpen: LockOpenIcon,
  alarmsOff: NotificationsOffIcon,
  schedule: ScheduleIcon,
  build: BuildIcon,
  screen: DesktopWindowsIcon,
  counter: NumbersIcon,
  download: DownloadIcon,
  diagnosis: MedicalServicesIcon,
  unit: MemoryIcon,
  height: HeightIcon,
};

export const commandIcon = (command: RemoteCommand): SvgIconComponent => ICONS[commandDefinition(command).icon];
