import type { AiOnboardRequest } from '@switchboard/shared';
import { AI_TONES } from '@switchboard/shared';
import { Alert, Button, Form, Input, Radio, Steps } from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { useFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { type AiStatus, useOnboard } from '../api.ts';

type Values = Required<Pick<AiOnboardRequest, 'description' | 'services' | 'hours' | 'tone'>> & {
  handoff_message: string;
};

const TONES: Record<(typeof AI_TONES)[number], string> = {
  friendly: 'Friendly',
  professional: 'Professional',
  casual: 'Casual',
};

const STEPS = [
  { title: 'The business', fields: ['description'] as const },
  { title: 'Services and hours', fields: ['services', 'hours'] as const },
  { title: 'How it speaks', fields: ['tone', 'handoff_message'] as const },
];

/**
 * The owner tells the assistant about the business in three short steps; what they say about hours and
 * services becomes FAQs it answers from the first day. Shown again (filled in) to change it.
 */
export function Onboarding({ status, onDone }: { status: AiStatus; onDone?: () => void }) {
  const [step, setStep] = useState(0);
  const [form] = Form.useForm<Values>();
  const onboard = useOnboard();
  // Only the step on screen can show a field's error; the rest of a refusal stays in the alert.
  const fieldErrors = useFieldErrors(form, (path) =>
    (STEPS[step]?.fields as readonly string[] | undefined)?.includes(path) ? path : null,
  );
  const { profile } = status;

  const next = async () => {
    await form.validateFields([...(STEPS[step]?.fields ?? [])]);
    setStep((s) => Math.min(s + 1, STEPS.length - 1));
  };
  const finish = async () => {
    await form.validateFields();
    const values = form.getFieldsValue(true) as Values;
    onboard.mutate(
      { ...values, handoff_message: values.handoff_message.trim() || null },
      {
        onError: fieldErrors.onError,
        onSuccess: () => {
          notify.success('The assistant knows your business now');
          onDone?.();
        },
      },
    );
  };

  return (
    <Panel title={profile.onboarding_completed ? 'About the business' : 'Set up the assistant'}>
      <Steps
        current={step}
        size="small"
        items={STEPS.map((s) => ({ title: s.title }))}
        style={{ marginBottom: 24 }}
      />
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          description: profile.description,
          services: profile.services,
          hours: profile.hours,
          tone: profile.tone,
          handoff_message: profile.handoff_message,
        }}
        preserve
      >
        <div hidden={step !== 0}>
          <Form.Item
            name="description"
            label="What does the business do?"
            extra="A sentence or two, as you would tell a new customer."
            rules={[{ required: true, whitespace: true, message: 'Say what the business does.' }]}
          >
            <Input.TextArea
              rows={3}
              maxLength={4000}
              placeholder="What you offer, who for, and where: as on your website’s first page"
            />
          </Form.Item>
        </div>
        <div hidden={step !== 1}>
          <Form.Item
            name="services"
            label="Services"
            extra="What customers can book or buy, with prices if you like."
          >
            <Input.TextArea rows={3} maxLength={4000} />
          </Form.Item>
          <Form.Item name="hours" label="Opening hours" extra="As you would write them to a customer.">
            <Input.TextArea
              rows={2}
              maxLength={2000}
              placeholder="Monday to Friday 8am–6pm, Saturday 9am–1pm"
            />
          </Form.Item>
        </div>
        <div hidden={step !== 2}>
          <Form.Item name="tone" label="Tone">
            <Radio.Group optionType="button" options={AI_TONES.map((t) => ({ value: t, label: TONES[t] }))} />
          </Form.Item>
          <Form.Item
            name="handoff_message"
            label="When the assistant hands over to a person, it tells the customer"
            extra="{first_name}, {business_name} and {location_name} are filled in."
            rules={[{ required: true, whitespace: true, message: 'Write what the customer is told.' }]}
          >
            <Input.TextArea rows={2} maxLength={1000} />
          </Form.Item>
        </div>
      </Form>
      {onboard.isError && fieldErrors.unplaced(onboard.error) && (
        <Alert type="error" showIcon message={failureText(onboard.error)} style={{ marginBottom: 16 }} />
      )}
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
        {step > 0 && <Button onClick={() => setStep(step - 1)}>Back</Button>}
        {step < STEPS.length - 1 ? (
          <Button type="primary" onClick={() => void next().catch(() => {})}>
            Next
          </Button>
        ) : (
          <Button type="primary" loading={onboard.isPending} onClick={() => void finish().catch(() => {})}>
            {profile.onboarding_completed ? 'Save' : 'Finish'}
          </Button>
        )}
      </div>
    </Panel>
  );
}
