// Every configured type (active and archived) for the type screens, through react-query so the list
// and the editor share one answer; `afterChange` refetches it and the console's runtime resources.
import { useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useConsoleServices } from '../layout/ConsoleServices';
import { useRefreshConfiguredTypes } from './ConfiguredTypesProvider';
import { createTypesApi } from './typesApi';

const TYPES_KEY = ['resourceTypes', 'all'] as const;

export const useTypesApi = () => {
  const { http, download } = useConsoleServices();
  return useMemo(() => createTypesApi(http, download), [http, download]);
};

export const useTypes = () => {
  const api = useTypesApi();
  return useQuery({ queryKey: TYPES_KEY, queryFn: () => api.list() });
};

/** After a save, delete or import: the type screens and the sidebar, routes and labels follow. */
export const useAfterTypesChange = () => {
  const queryClient = useQueryClient();
  const refreshRuntime = useRefreshConfiguredTypes();
  return async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: TYPES_KEY }), refreshRuntime()]);
  };
};
