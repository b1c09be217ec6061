import { taxRulesOf } from '@switchboard/shared';
import { Form, Input } from 'antd';

/**
 * The business's tax registration number, named and checked as its country's invoices need it (an ABN with
 * its check digits in Australia, a VAT registration number in the UK, a GST number in New Zealand). The server
 * checks it again and keeps it in the country's usual form.
 */
export function TaxNumberField({ country }: { country: string | null }) {
  const rules = taxRulesOf(country);
  return (
    <Form.Item
      name="tax_id"
      label={rules.number_label}
      extra={`Shown on every invoice${rules.number_example ? `, e.g. ${rules.number_example}` : ''}.`}
      rules={[
        {
          validator: async (_, value: string | null | undefined) => {
            if (!value?.trim()) return;
            const checked = rules.check(value);
            if (!checked.ok) throw new Error(checked.message);
          },
        },
      ]}
    >
      <Input maxLength={50} aria-label={rules.number_label} placeholder={rules.number_example || undefined} />
    </Form.Item>
  );
}
