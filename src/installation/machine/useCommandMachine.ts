// What the RemoteControl tab needs to know about its machine: the RVM number (dialog texts), the
// model (which actions it supports) and the current bin heights and on/off times (form defaults).
// Read from the first source the user may call: the machine record, the ProfileSetting record, the
// Overview; without any the model stays unknown and every action is offered (the server decides).
import { machine } from '../../../resources/machine';
import { useMachineData } from './MachineContext';
import type { MachineOverview } from './machineTypes';
import { useCanAccess } from 'ra-core';
import { identifierRequest } from '../../permissions/canAccess';
import { resourceNameOf } from '../../providers/registry';
import type { HttpClient } from '../../providers/httpTypes';

export interface CommandMachine {
  termNo: string | null;
  termType: string | null;
  /** Fields commands prefill from (binEmptyHeight, onTime ...). */
  record: Record<string, unknown>;
}

const PROFILE_PERMISSION = 'installation:rvmpage:ProfileSetting';
const OVERVIEW_PERMISSION = 'installation:rvmpage:Overview';

type Loader = (http: HttpClient, id: number, signal: AbortSignal) => Promise<CommandMachine>;

const fromRecord = (record: Record<string, unknown>): CommandMachine => ({
  termNo: typeof record.termNo === 'string' ? record.termNo : null,
  termType: typeof record.termType === 'string' ? record.termType : null,
  record,
});

/** The machine's details; `isPending` also while the user's permissions (which pick the source) load. */
export const useCommandMachine = () => {
  const machineResource = resourceNameOf(machine);
  const answers = [
    useCanAccess({ resource: machineResource, action: 'show' }),
    useCanAccess(identifierRequest(PROFILE_PERMISSION)),
    useCanAccess({ resource: machineResource, action: 'edit' }),
    useCanAccess(identifierRequest(OVERVIEW_PERMISSION)),
  ];
  const permissionsPending = answers.some((answer) => answer.isPending);
  const [mayRead, mayReadProfile, mayEdit, mayReadOverview] = answers.map((answer) => answer.canAccess === true);
  let source: string;
  let load: Loader;
  if (permissionsPending) {
    source = 'pending';
    // never settles: replaced by the real source as soon as the permissions are known
    load = () => new Promise<CommandMachine>(() => undefined);
  } else if (mayRead) {
    source = 'record';
    load = async (http, id, signal) => fromRecord(await http.get<Record<string, unknown>>(`${machine.apiPath}/${id}`, undefined, { signal, silent: true }));
  } else if (mayReadProfile || mayEdit) {
    source = 'profile';
    load = async (http, id, signal) => fromRecord(await http.get<Record<string, unknown>>('/rvmpage/profile', { id }, { signal, silent: true }));
  } else if (mayReadOverview) {
    source = 'overview';
    load = async (http, id, signal) => fromRecord((await http.get<MachineOverview>('/rvmpage/overview', { id }, { signal, silent: true })).machine);
  } else {
    source = 'none';
    load = async () => ({ termNo: null, termType: null, record: {} });
  }
  return useMachineData(load, ['commandMachine', source]);
};
