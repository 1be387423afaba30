// One icon per remote command (buttons of the RemoteControl tab and the bulk command picker).
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
import type { RemoteCommand } from '../../resources/commands';

export const COMMAND_ICONS: Readonly<Record<RemoteCommand, SvgIconComponent>> = {
  restart: RestartAltIcon,
  close: LockIcon,
  open: LockOpenIcon,
  clearAlarms: NotificationsOffIcon,
  setOnOffTime: ScheduleIcon,
  maintenance: BuildIcon,
  uiServiceReset: DesktopWindowsIcon,
  uiCounterReset: NumbersIcon,
  downloadLogs: DownloadIcon,
  remoteDiagnosis: MedicalServicesIcon,
  restartC750: MemoryIcon,
  binHeight: HeightIcon,
};
