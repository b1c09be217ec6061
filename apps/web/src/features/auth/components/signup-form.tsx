import { Alert, Button, Form, Input, Select } from 'antd';
import { getCountries } from 'libphonenumber-js';
import { useEffect, useMemo, useRef, useState } from 'react';
import { TimezoneSelect } from '@/components/timezone-select.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { showFieldErrors } from '@/lib/form-errors.ts';
import {
  fetchRegisterForm,
  guessCountry,
  guessTimezone,
  type RegisterInput,
  register,
  type SignupStarted,
  trackingValues,
} from '../api/register.ts';
import './login-form.css';

type Values = {
  business_name: string;
  full_name: string;
  email: string;
  password: string;
  mobile: string;
  country: string;
  timezone: string;
  location_name: string;
  location_address?: string;
  website?: string;
};

/** The business whose referral link (`/signup?ref={id}`) brought this person, when it did. */
function referral(): { referral?: string } {
  const ref = new URLSearchParams(window.location.search).get('ref');
  return ref && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref)
    ? { referral: ref }
    : {};
}

function useCountryOptions() {
  return useMemo(() => {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    return getCountries()
      .map((code) => ({ value: code, label: names.of(code) ?? code }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }, []);
}

/**
 * The sign-up form. It asks the server for a signed form token as it opens (the server refuses a form sent back
 * sooner than a person could fill it in), carries a hidden honeypot field, and sends the tracking values. Sent,
 * it creates nothing yet: a code goes to the email, and `onStarted` hands over what was sent (to send it again
 * for a new code).
 */
/** The first location is sent as `location`; the form asks for its name and address on their own. */
const SIGNUP_FIELDS = { 'location.name': 'location_name', 'location.address': 'location_address' } as const;

export function SignupForm({
  onStarted,
}: {
  onStarted: (result: { started: SignupStarted; input: RegisterInput }) => void;
}) {
  const [form] = Form.useForm<Values>();
  const countries = useCountryOptions();
  const formToken = useRef<Promise<{ form_token: string }> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const token = fetchRegisterForm();
    token.catch((e: unknown) => setError(failureText(e)));
    formToken.current = token;
  }, []);

  async function submit(values: Values) {
    setPending(true);
    setError(null);
    try {
      const { form_token } = await (formToken.current ?? fetchRegisterForm());
      const input: RegisterInput = {
        business_name: values.business_name,
        full_name: values.full_name,
        email: values.email,
        password: values.password,
        mobile: values.mobile,
        country: values.country,
        timezone: values.timezone,
        location: { name: values.location_name, address: values.location_address ?? '' },
        meta: { tracking: trackingValues(), ...referral() },
        form_token,
        website: values.website ?? '',
      };
      onStarted({ started: await register(input), input });
    } catch (e) {
      if (!showFieldErrors(form, e, SIGNUP_FIELDS)) setError(failureText(e));
      // A refused form (expired token) gets a fresh token for the next try; what was typed stays.
      formToken.current = fetchRegisterForm();
      formToken.current.catch(() => {});
    } finally {
      setPending(false);
    }
  }

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark={false}
      size="large"
      disabled={pending}
      initialValues={{ country: guessCountry(), timezone: guessTimezone() }}
      onFinish={submit}
      onValuesChange={(changed) => {
        if (error) setError(null);
        // The first location is named after the business until someone names it themselves.
        if ('business_name' in changed && !form.isFieldTouched('location_name')) {
          form.setFieldValue('location_name', changed.business_name);
        }
      }}
      className="signup-form"
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form.Item
        label="Business name"
        name="business_name"
        rules={[{ required: true, whitespace: true, message: 'Please enter the business name' }]}
      >
        <Input autoComplete="organization" autoFocus maxLength={200} />
      </Form.Item>
      <Form.Item
        label="Your name"
        name="full_name"
        rules={[{ required: true, whitespace: true, message: 'Please enter your name' }]}
      >
        <Input autoComplete="name" maxLength={200} />
      </Form.Item>
      <Form.Item
        label="Work email"
        name="email"
        rules={[
          { required: true, message: 'Please enter your work email' },
          { type: 'email', message: 'This is not an email address: check it for typos' },
        ]}
      >
        <Input autoComplete="email" inputMode="email" maxLength={320} />
      </Form.Item>
      <Form.Item
        label="Password"
        name="password"
        rules={[
          { required: true, message: 'Please choose a password' },
          { min: 8, message: 'Use at least 8 characters' },
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <div className="signup-form__pair">
        <Form.Item
          label="Country"
          name="country"
          rules={[{ required: true, message: 'Please choose your country' }]}
        >
          <Select showSearch={{ optionFilterProp: 'label' }} options={countries} />
        </Form.Item>
        <Form.Item
          label="Mobile"
          name="mobile"
          rules={[{ required: true, whitespace: true, message: 'Please enter your mobile number' }]}
        >
          <Input autoComplete="tel" inputMode="tel" maxLength={40} />
        </Form.Item>
      </div>
      <Form.Item
        label="Time zone"
        name="timezone"
        rules={[{ required: true, message: 'Please choose your time zone' }]}
      >
        <TimezoneSelect />
      </Form.Item>
      <Form.Item
        label="First location"
        name="location_name"
        extra="Where customers reach you, e.g. your shop or clinic. You can add more later."
        rules={[{ required: true, whitespace: true, message: 'Please name your first location' }]}
      >
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item label="Its address (optional)" name="location_address">
        <Input autoComplete="street-address" maxLength={300} />
      </Form.Item>
      {/* People never see this field; form-filling bots do. */}
      <div className="signup-form__trap" aria-hidden="true">
        <Form.Item label="Website" name="website">
          <Input tabIndex={-1} autoComplete="off" />
        </Form.Item>
      </div>
      <Button type="primary" htmlType="submit" block loading={pending}>
        Start my free trial
      </Button>
    </Form>
  );
}
