// The list view derived from a declaration: columns, server-side paging/sorting/filtering, column
// chooser, saved filters, export, bulk delete, empty and loading states; every button by permission
// (react-admin's canAccess: its own buttons ask it themselves, the others through useCanAccess / <CanAccess>).
import type { ReactNode } from 'react';
import { BulkDeleteButton, CanAccess, ColumnsButton, CreateButton, DataTable, FilterButton, List, Pagination, TopToolbar, useCanAccess } from 'react-admin';
import { useDeclaration } from './DeclarationContext';
import { ExportButton } from './ExportButton';
import { FieldDisplay } from './FieldDisplay';
import { buildFilterInputs } from './filterInputs';
import { GenericEmpty } from './GenericEmpty';
import { KeyboardRowsBody, ROW_FOCUS_SX } from './KeyboardRows';
import { fieldLabel } from '../providers/registry';
import { LIST_PAGE_SIZES } from '../../resources/types';
import { SavedFiltersButton } from './SavedFiltersButton';
import { treeParentFieldOf } from './TreeChecklistInput';
import { TreeCell, TreeDataTable } from './TreeDataTable';

const DEFAULT_PAGE_SIZE = 20;
// headers and date-times stay on one line; a table wider than the content area scrolls inside it; cells keep 10 px
// either side (MUI: 16), as the machine page's tables do, so a list of eight to ten columns fits 1280 px
const TABLE_SX = {
  '& .RaDataTable-headerCell': { whiteSpace: 'nowrap' },
  '& .MuiTableCell-sizeSmall:not(.MuiTableCell-paddingCheckbox)': { px: 1.25 },
  '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
  ...ROW_FOCUS_SX,
} as const;
const LIST_SX = { '& .RaList-main, & .RaList-content': { minWidth: 0 } } as const;

const ListActions = ({ hasFilters, columnSources }: { hasFilters: boolean; columnSources: (string | null)[] }) => {
  return (
    <TopToolbar>
      {/* no react-admin "Save current query" (browser-local): saved filters are the server's, next button */}
      {hasFilters ? <FilterButton disableSaveQuery /> : null}
      {hasFilters ? <SavedFiltersButton /> : null}
      <ColumnsButton />
      <CreateButton />
      <CanAccess action="export">
        <ExportButton columnSources={columnSources} />
      </CanAccess>
    </TopToolbar>
  );
};

export interface GenericListProps {
  /** Extra per-row buttons (hand-written views), shown in a last column. */
  rowActions?: ReactNode;
  /** The page title; false when the list is embedded in a screen that has its own. */
  title?: ReactNode | false;
  /** Extra buttons of the selected-rows toolbar (a screen's own bulk actions), before bulk delete. */
  bulkActions?: ReactNode;
}

export const GenericList = ({ rowActions, title, bulkActions }: GenericListProps) => {
  const { declaration, registry } = useDeclaration();
  const { canAccess: mayEdit } = useCanAccess({ action: 'edit' });
  const { canAccess: mayShow } = useCanAccess({ action: 'show' });
  const { canAccess: mayDelete } = useCanAccess({ action: 'delete' });
  const filters = buildFilterInputs(declaration, registry);
  const treeParent = declaration.list.tree ? treeParentFieldOf(declaration) : undefined;
  // a view this list's declaration leaves out is not opened (the fleet screen's machine list opens "show")
  const rowClick = declaration.permissions.edit && mayEdit ? 'edit' : declaration.permissions.show && mayShow ? 'show' : false;
  const bulkDelete = mayDelete ? <BulkDeleteButton mutationMode="pessimistic" /> : null;
  const bulkActionButtons =
    bulkActions || bulkDelete ? (
      <>
        {bulkActions}
        {bulkDelete}
      </>
    ) : (
      false
    );

  const columns = declaration.list.columns.map((name, index) => {
    const field = declaration.fields[name];
    const cell = <FieldDisplay source={name} cell />;
    const oneLine = field?.type === 'datetime' || field?.type === 'date' ? { whiteSpace: 'nowrap' } : undefined;
    return (
      <DataTable.Col key={name} source={name} label={fieldLabel(declaration, name)} disableSort={!field?.sortable} sx={oneLine}>
        {treeParent && index === 0 ? <TreeCell>{cell}</TreeCell> : cell}
      </DataTable.Col>
    );
  });
  // Row actions come first: always in view, even when a wide table scrolls sideways.
  if (rowActions) {
    columns.unshift(
      <DataTable.Col key="__actions" label="generic.list.actions" disableSort>
        {rowActions}
      </DataTable.Col>,
    );
  }

  // the DataTable's children in order (null: row actions), so the export follows the column chooser
  const columnSources = [...(rowActions ? [null] : []), ...declaration.list.columns];

  return (
    <List
      title={title}
      sx={LIST_SX}
      sort={declaration.list.defaultSort}
      filters={filters.length ? filters : undefined}
      actions={<ListActions hasFilters={filters.length > 0} columnSources={columnSources} />}
      empty={<GenericEmpty />}
      perPage={treeParent ? 500 : DEFAULT_PAGE_SIZE}
      pagination={treeParent ? false : <Pagination rowsPerPageOptions={[...LIST_PAGE_SIZES]} />}
      // a tree needs every node: the data provider pages through all of them
      queryOptions={{
        ...(treeParent ? { meta: { all: true } } : {}),
        // react-query pauses the interval while the browser tab is hidden
        ...(declaration.list.refreshSeconds ? { refetchInterval: declaration.list.refreshSeconds * 1000 } : {}),
      }}
    >
      {treeParent ? (
        <TreeDataTable parentField={treeParent} rowClick={rowClick} bulkActionButtons={bulkActionButtons} body={KeyboardRowsBody} sx={TABLE_SX}>
          {columns}
        </TreeDataTable>
      ) : (
        <DataTable rowClick={rowClick} bulkActionButtons={bulkActionButtons} body={KeyboardRowsBody} sx={TABLE_SX}>
          {columns}
        </DataTable>
      )}
    </List>
  );
};
