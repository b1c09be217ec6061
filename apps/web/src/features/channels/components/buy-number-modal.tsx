import type { AvailableNumber } from '@switchboard/shared';
import { Alert, Button, Flex, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { notify } from '@/lib/notifier.ts';
import { useBuyNumber } from '../api/buy-number.ts';
import { type NumberSearch, useNumberSearch } from '../api/search-numbers.ts';

type Props = { open: boolean; locationId: string; locationName: string; onClose: () => void };

type Values = { country: string; area_code?: string; in_locality?: string; contains?: string };

const COUNTRIES = [
  { value: 'AU', label: 'Australia' },
  { value: 'US', label: 'United States' },
  { value: 'CA', label: 'Canada' },
  { value: 'GB', label: 'United Kingdom' },
];

/** Area codes narrow searches only in the US and Canada (Twilio ignores them elsewhere). */
const HAS_AREA_CODES = new Set(['US', 'CA']);

const blankToUndefined = (value: string | undefined) => value?.trim() || undefined;

function Capabilities({ n }: { n: AvailableNumber }) {
  const caps = [
    n.capabilities.sms && 'SMS',
    n.capabilities.mms && 'MMS',
    n.capabilities.voice && 'Voice',
  ].filter(Boolean) as string[];
  return (
    <Space size={4} wrap>
      {caps.map((c) => (
        <Tag key={c}>{c}</Tag>
      ))}
    </Space>
  );
}

/**
 * Searching numbers for sale (country, area code, town, digits) and buying one for the location, through the
 * platform's Twilio account: the owner needs no Twilio account of their own.
 */
export default function BuyNumberModal({ open, locationId, locationName, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const country = Form.useWatch('country', form) ?? 'AU';
  const [search, setSearch] = useState<NumberSearch | null>(null);
  const found = useNumberSearch(search);
  const buy = useBuyNumber();
  const [choosing, setChoosing] = useState<string | null>(null);

  const submit = (values: Values) => {
    buy.reset();
    setSearch({
      location_id: locationId,
      country: values.country,
      area_code: HAS_AREA_CODES.has(values.country) ? blankToUndefined(values.area_code) : undefined,
      in_locality: blankToUndefined(values.in_locality),
      contains: blankToUndefined(values.contains),
    });
  };

  const purchase = async (n: AvailableNumber) => {
    setChoosing(n.phone_number);
    try {
      const bought = await buy.mutateAsync({ location_id: locationId, phone_number: n.phone_number });
      notify.success(`${bought.number.formatted} is now ${locationName}'s number`);
      setSearch(null);
      onClose();
    } catch {
      // Shown in the dialog below.
    } finally {
      setChoosing(null);
    }
  };

  const items = found.data?.items ?? [];
  return (
    <Modal
      open={open}
      title={`Buy a number for ${locationName}`}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={640}
    >
      <Typography.Paragraph type="secondary">
        Texts and calls to the number arrive in this inbox. It is bought on Switchboard's Twilio account: you
        need no Twilio account of your own.
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ country: 'AU' }}
        onFinish={submit}
        requiredMark={false}
      >
        <Flex gap={12} wrap>
          <Form.Item name="country" label="Country" style={{ flex: '1 1 160px', marginBottom: 12 }}>
            <Select options={COUNTRIES} />
          </Form.Item>
          {HAS_AREA_CODES.has(country) && (
            <Form.Item
              name="area_code"
              label="Area code"
              style={{ flex: '1 1 120px', marginBottom: 12 }}
              rules={[{ pattern: /^\s*\d{1,6}\s*$/, message: 'The area code is digits only, such as 415.' }]}
            >
              <Input inputMode="numeric" placeholder="415" />
            </Form.Item>
          )}
          <Form.Item
            name="in_locality"
            label="Town or city"
            style={{ flex: '1 1 160px', marginBottom: 12 }}
            rules={[{ min: 2, message: 'Enter at least 2 letters of the town.' }, { max: 60 }]}
          >
            <Input placeholder="Any" />
          </Form.Item>
          <Form.Item
            name="contains"
            label="Digits in the number"
            style={{ flex: '1 1 140px', marginBottom: 12 }}
            rules={[{ pattern: /^\s*[\d*]{2,16}\s*$/, message: 'Use 2 to 16 digits (and * for any digit).' }]}
          >
            <Input inputMode="numeric" placeholder="Any" />
          </Form.Item>
        </Flex>
        <Button type="primary" htmlType="submit" loading={found.isFetching}>
          Search numbers
        </Button>
      </Form>

      {found.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={failureText(found.error)}
          style={{ marginTop: 16 }}
        />
      )}
      {buy.isError && (
        <Alert type="error" showIcon role="alert" title={failureText(buy.error)} style={{ marginTop: 16 }} />
      )}
      {found.data && (
        <section aria-label="Numbers for sale" style={{ marginTop: 16 }}>
          {items.length === 0 ? (
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              No numbers that can text are for sale with these details. Try another area code or town, or
              fewer digits.
            </Typography.Paragraph>
          ) : (
            <ul
              style={{
                listStyle: 'none',
                padding: 0,
                margin: 0,
                display: 'flex',
                flexDirection: 'column',
                gap: 8,
              }}
            >
              {items.map((n) => (
                <li
                  key={n.phone_number}
                  aria-label={n.formatted}
                  style={{ border: '1px solid rgba(5,5,5,0.06)', borderRadius: 8, padding: '8px 12px' }}
                >
                  <Flex justify="space-between" align="center" gap={8} wrap>
                    <Flex vertical gap={2} style={{ minWidth: 0 }}>
                      <Typography.Text strong>{n.formatted}</Typography.Text>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {[n.locality, n.region].filter(Boolean).join(', ') ||
                          COUNTRIES.find((c) => c.value === n.iso_country)?.label}
                      </Typography.Text>
                      <Capabilities n={n} />
                    </Flex>
                    <Button
                      onClick={() => purchase(n)}
                      loading={choosing === n.phone_number}
                      disabled={choosing !== null && choosing !== n.phone_number}
                      aria-label={`Buy ${n.formatted}`}
                    >
                      Buy
                    </Button>
                  </Flex>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </Modal>
  );
}
