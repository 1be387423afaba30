// Service › Setup › Packages: the package declaration's generic list under the Setup tabs (a
// declaration's `customViews` list, loaded when first opened: src/app/customViews.ts).
import { GenericList } from '../generic/GenericList';
import { SetupTabs } from './SetupTabs';

const SetupPackagesList = () => (
  <>
    <SetupTabs current="packages" />
    <GenericList title="menu.setup" />
  </>
);

export default SetupPackagesList;
