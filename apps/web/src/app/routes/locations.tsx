import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { LocationsTable } from '@/features/locations/components/locations-table.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function LocationsRoute() {
  const { business, location, canManage, me } = useAppSelection();
  // `?edit={id}`: another screen (the set-up checklist) sent the owner here to change that location.
  const [search, setSearch] = useSearchParams();
  const clearEdit = useCallback(() => setSearch({}, { replace: true }), [setSearch]);
  return (
    <>
      <PageHeader
        title="Locations"
        subtitle={`The places ${business.name} answers customers from. Each has its own numbers, inbox and counts.`}
      />
      <LocationsTable
        canManage={canManage}
        currentLocationId={location?.id ?? null}
        defaultTimezone={business.timezone}
        calls={me.feature_flags.calls}
        editId={search.get('edit')}
        onEditOpened={clearEdit}
      />
    </>
  );
}
