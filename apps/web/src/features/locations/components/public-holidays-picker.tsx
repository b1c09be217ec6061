import { Alert, Button, Card, Flex, Select } from 'antd';
import { useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { fetchPublicHolidays, usePublicHolidayPlaces } from '../api/public-holidays.ts';

/** Where a location in this time zone most likely keeps its public holidays. */
const PLACE_OF_ZONE: Record<string, { country: string; region?: string }> = {
  'Australia/Melbourne': { country: 'AU', region: 'VIC' },
  'Australia/Sydney': { country: 'AU', region: 'NSW' },
  'Australia/Brisbane': { country: 'AU', region: 'QLD' },
  'Australia/Adelaide': { country: 'AU', region: 'SA' },
  'Australia/Perth': { country: 'AU', region: 'WA' },
  'Australia/Hobart': { country: 'AU', region: 'TAS' },
  'Australia/Darwin': { country: 'AU', region: 'NT' },
  'Pacific/Auckland': { country: 'NZ' },
  'Europe/London': { country: 'GB' },
};

/**
 * Picks a country (and region, where holidays differ by one) and a year, and hands that year's public holidays
 * to the list; the calendar is the server's own, nothing is looked up elsewhere.
 */
export function PublicHolidaysPicker({
  timezone,
  onAdd,
  onClose,
}: {
  timezone: string | undefined;
  onAdd: (holidays: { date: string; name: string }[]) => void;
  onClose: () => void;
}) {
  const places = usePublicHolidayPlaces(true);
  const guess = PLACE_OF_ZONE[timezone ?? ''];
  const [country, setCountry] = useState<string | undefined>(guess?.country);
  const [region, setRegion] = useState<string | undefined>(guess?.region);
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const regions = places.data?.countries.find((c) => c.code === country)?.regions ?? [];

  const add = async () => {
    if (!country) return;
    setBusy(true);
    setProblem(null);
    try {
      onAdd(await fetchPublicHolidays({ country, region, year }));
    } catch (error) {
      setProblem(failureText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="small" title="Add public holidays">
      <Flex vertical gap={8}>
        {(places.error || problem) && (
          <Alert type="error" showIcon title={problem ?? failureText(places.error)} role="alert" />
        )}
        <Select
          aria-label="Country"
          showSearch
          optionFilterProp="label"
          placeholder="Country"
          loading={places.isPending}
          value={country}
          options={places.data?.countries.map((c) => ({ value: c.code, label: c.name }))}
          onChange={(code) => {
            setCountry(code);
            setRegion(undefined);
          }}
        />
        {regions.length > 0 && (
          <Select
            aria-label="State or region"
            showSearch
            allowClear
            optionFilterProp="label"
            placeholder="The whole country"
            value={region}
            options={regions.map((r) => ({ value: r.code, label: r.name }))}
            onChange={(code) => setRegion(code)}
          />
        )}
        <Select
          aria-label="Year"
          value={year}
          options={[thisYear, thisYear + 1, thisYear + 2].map((y) => ({ value: y, label: String(y) }))}
          onChange={setYear}
        />
        <Flex gap={8} justify="end">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" disabled={!country} loading={busy} onClick={() => void add()}>
            Add {year}'s holidays
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
