import { ExperimentOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Form, Input, List, Modal, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { useFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { type AiTool, type ToolDraft, useDeleteTool, useSaveTool, useTestTool, useTools } from '../api.ts';
import { useItemLayout } from '../use-item-layout.ts';

type ParamRow = {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean';
  description: string;
  required: boolean;
};
type HeaderRow = { name: string; value: string; stored?: string };
type Values = {
  name: string;
  description: string;
  method: string;
  url_template: string;
  body_template: string;
  headers: HeaderRow[];
  params: ParamRow[];
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A new tool is sent as the first of a list (`tools.0.url_template`); the form holds one tool. */
const toolField = (serverPath: string) => serverPath.replace(/^tools\.\d+\./, '');

function toDraft(values: Values, editing: AiTool | null): ToolDraft {
  const headers: Record<string, string | null> = {};
  for (const h of values.headers ?? []) {
    if (!h.name?.trim()) continue;
    // On an edit, a value left blank keeps the stored secret.
    if (h.value) headers[h.name.trim()] = h.value;
    else if (!editing) headers[h.name.trim()] = '';
  }
  if (editing)
    for (const name of Object.keys(editing.headers))
      if (!(values.headers ?? []).some((h) => h.name === name)) headers[name] = null;
  const params = (values.params ?? []).filter((p) => p.name?.trim());
  return {
    ...(editing ? { id: editing.id } : {}),
    name: values.name.trim(),
    description: values.description.trim(),
    method: values.method,
    url_template: values.url_template.trim(),
    body_template: values.method === 'GET' || !values.body_template?.trim() ? null : values.body_template,
    headers,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(
        params.map((p) => [p.name.trim(), { type: p.type, description: p.description ?? '' }]),
      ),
      required: params.filter((p) => p.required).map((p) => p.name.trim()),
    },
  };
}

/**
 * The HTTP tools the assistant may call (a booking system, an order lookup): address with {placeholders},
 * headers whose values are kept secret, the parameters the assistant fills, and a button to try one.
 */
export function ToolsPanel({ canManage }: { canManage: boolean }) {
  const itemLayout = useItemLayout();
  const tools = useTools();
  const save = useSaveTool();
  const remove = useDeleteTool();
  const [editing, setEditing] = useState<AiTool | 'new' | null>(null);
  const [testing, setTesting] = useState<AiTool | null>(null);
  const [form] = Form.useForm<Values>();
  const fieldErrors = useFieldErrors(form, toolField);
  const method = Form.useWatch('method', form);

  const open = (tool: AiTool | 'new') => {
    save.reset();
    setEditing(tool);
    form.setFieldsValue(
      tool === 'new'
        ? {
            name: '',
            description: '',
            method: 'GET',
            url_template: 'https://',
            body_template: '',
            headers: [],
            params: [],
          }
        : {
            name: tool.name,
            description: tool.description,
            method: tool.method,
            url_template: tool.url_template,
            body_template: tool.body_template ?? '',
            headers: Object.entries(tool.headers).map(([name, masked]) => ({
              name,
              value: '',
              stored: masked,
            })),
            params: Object.entries(tool.parameters.properties).map(([name, p]) => ({
              name,
              type: p.type,
              description: p.description ?? '',
              required: (tool.parameters.required ?? []).includes(name),
            })),
          },
    );
  };

  return (
    <Panel
      title="Tools"
      extra={
        canManage && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>
            Add tool
          </Button>
        )
      }
      flush
    >
      <List<AiTool>
        itemLayout={itemLayout}
        loading={tools.isPending}
        dataSource={tools.data ?? []}
        locale={{
          emptyText: tools.isError
            ? failureText(tools.error)
            : 'No tools yet. A tool lets the assistant look something up in your own system, like free appointment times.',
        }}
        renderItem={(tool) => (
          <List.Item
            style={{ paddingInline: 16, flexWrap: 'wrap', gap: 8 }}
            actions={
              canManage
                ? [
                    <Button
                      key="test"
                      size="small"
                      icon={<ExperimentOutlined />}
                      onClick={() => setTesting(tool)}
                    >
                      Test
                    </Button>,
                    <Button key="edit" size="small" onClick={() => open(tool)}>
                      Edit
                    </Button>,
                    <Button
                      key="delete"
                      size="small"
                      danger
                      loading={remove.isPending && remove.variables === tool.id}
                      onClick={() =>
                        Modal.confirm({
                          title: `Delete the tool ${tool.name}?`,
                          content: 'Flows that call it will say it is no longer there.',
                          okText: 'Delete',
                          okButtonProps: { danger: true },
                          onOk: () => remove.mutateAsync(tool.id).then(() => notify.success('Tool deleted')),
                        })
                      }
                    >
                      Delete
                    </Button>,
                  ]
                : []
            }
          >
            <List.Item.Meta
              title={
                <span>
                  <Typography.Text code>{tool.name}</Typography.Text> {tool.description}
                </span>
              }
              description={
                <span style={{ overflowWrap: 'anywhere' }}>
                  <Tag>{tool.method}</Tag>
                  {tool.url_template}
                </span>
              }
            />
          </List.Item>
        )}
      />
      <Modal
        title={editing === 'new' ? 'Add a tool' : 'Edit tool'}
        open={editing !== null}
        okText="Save"
        confirmLoading={save.isPending}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        width={640}
        destroyOnHidden
      >
        <Form<Values>
          form={form}
          layout="vertical"
          onFinish={(values) =>
            save.mutate(toDraft(values, editing === 'new' ? null : editing), {
              onError: fieldErrors.onError,
              onSuccess: () => {
                setEditing(null);
                notify.success('Tool saved');
              },
            })
          }
        >
          <Form.Item
            name="name"
            label="Name"
            extra="Lower case letters, digits and _, like check_availability."
            rules={[
              {
                required: true,
                pattern: /^[a-z][a-z0-9_]{0,39}$/,
                message: 'Lower case letters, digits and _, starting with a letter.',
              },
            ]}
          >
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item
            name="description"
            label="What it does (the assistant reads this)"
            rules={[{ required: true, whitespace: true, message: 'Say what the tool does.' }]}
          >
            <Input maxLength={1000} placeholder="Free appointment times on a given day" />
          </Form.Item>
          {/* Shows the address's own error line, which its noStyle item cannot. */}
          <Form.Item style={{ marginBottom: 0 }}>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="method" noStyle>
                <Select
                  aria-label="Method"
                  options={METHODS.map((m) => ({ value: m, label: m }))}
                  style={{ width: 110 }}
                />
              </Form.Item>
              <Form.Item
                name="url_template"
                noStyle
                rules={[
                  {
                    required: true,
                    pattern: /^https?:\/\/\S+$/,
                    message: 'A web address starting with https://',
                  },
                ]}
              >
                <Input aria-label="Address" placeholder="https://bookings.example.com/slots?day={day}" />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '4px 0 16px' }}>
            Put a parameter in the address as {'{name}'}. Only public addresses can be called.
          </Typography.Paragraph>
          {method && method !== 'GET' && (
            <Form.Item name="body_template" label="Body (JSON)" extra="Parameters as {name}.">
              <Input.TextArea rows={3} maxLength={10_000} placeholder={'{"day": "{day}"}'} />
            </Form.Item>
          )}
          <Typography.Text strong>Parameters</Typography.Text>
          <Form.List name="params">
            {(fields, { add, remove: drop }) => (
              <>
                {fields.map((field) => (
                  <Space key={field.key} align="baseline" wrap style={{ display: 'flex', marginTop: 8 }}>
                    <Form.Item
                      name={[field.name, 'name']}
                      noStyle
                      rules={[{ required: true, pattern: /^[a-z][a-z0-9_]{0,39}$/, message: 'A name' }]}
                    >
                      <Input aria-label="Parameter name" placeholder="day" style={{ width: 120 }} />
                    </Form.Item>
                    <Form.Item name={[field.name, 'type']} noStyle initialValue="string">
                      <Select
                        aria-label="Parameter type"
                        style={{ width: 110 }}
                        options={['string', 'number', 'integer', 'boolean'].map((t) => ({
                          value: t,
                          label: t,
                        }))}
                      />
                    </Form.Item>
                    <Form.Item name={[field.name, 'description']} noStyle>
                      <Input
                        aria-label="Parameter description"
                        placeholder="What it is"
                        style={{ width: 180 }}
                      />
                    </Form.Item>
                    <Form.Item name={[field.name, 'required']} noStyle valuePropName="checked" initialValue>
                      <Checkbox>Required</Checkbox>
                    </Form.Item>
                    <Button
                      type="text"
                      icon={<MinusCircleOutlined />}
                      aria-label="Remove parameter"
                      onClick={() => drop(field.name)}
                    />
                  </Space>
                ))}
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add({ type: 'string', required: true })}
                  style={{ margin: '8px 0 16px' }}
                >
                  Add parameter
                </Button>
              </>
            )}
          </Form.List>
          <div>
            <Typography.Text strong>Headers</Typography.Text>
          </div>
          <Form.List name="headers">
            {(fields, { add, remove: drop }) => (
              <>
                {fields.map((field) => {
                  const stored = form.getFieldValue(['headers', field.name, 'stored']) as string | undefined;
                  return (
                    <Space key={field.key} align="baseline" wrap style={{ display: 'flex', marginTop: 8 }}>
                      <Form.Item
                        name={[field.name, 'name']}
                        noStyle
                        rules={[{ required: true, message: 'A name' }]}
                      >
                        <Input aria-label="Header name" placeholder="Authorization" style={{ width: 160 }} />
                      </Form.Item>
                      <Form.Item name={[field.name, 'value']} noStyle>
                        <Input.Password
                          aria-label="Header value"
                          placeholder={stored ? `${stored} (kept unless you type a new one)` : 'Bearer …'}
                          style={{ width: 260 }}
                        />
                      </Form.Item>
                      <Button
                        type="text"
                        icon={<MinusCircleOutlined />}
                        aria-label="Remove header"
                        onClick={() => drop(field.name)}
                      />
                    </Space>
                  );
                })}
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add({ name: '', value: '' })}
                  style={{ marginTop: 8 }}
                >
                  Add header
                </Button>
                <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 4 }}>
                  Header values are stored encrypted and never shown again.
                </Typography.Paragraph>
              </>
            )}
          </Form.List>
          {save.isError && fieldErrors.unplaced(save.error) && (
            <Alert type="error" showIcon message={failureText(save.error)} />
          )}
        </Form>
      </Modal>
      {testing && <TestTool tool={testing} onClose={() => setTesting(null)} />}
    </Panel>
  );
}

/** Calls a tool with the arguments typed in, and shows what came back (or why nothing did). */
function TestTool({ tool, onClose }: { tool: AiTool; onClose: () => void }) {
  const test = useTestTool();
  const [args, setArgs] = useState<Record<string, string>>({});
  const names = Object.keys(tool.parameters.properties);
  return (
    <Modal title={`Test ${tool.name}`} open onCancel={onClose} footer={null} destroyOnHidden>
      {names.map((name) => (
        <Form.Item
          key={name}
          label={name}
          extra={tool.parameters.properties[name]?.description}
          layout="vertical"
        >
          <Input
            aria-label={name}
            value={args[name] ?? ''}
            onChange={(e) => setArgs({ ...args, [name]: e.target.value })}
          />
        </Form.Item>
      ))}
      <Button
        type="primary"
        loading={test.isPending}
        onClick={() => test.mutate({ id: tool.id, arguments: args })}
      >
        Call it
      </Button>
      {test.data && (
        <div style={{ marginTop: 16 }} role="status">
          <Tag color={test.data.ok ? 'success' : 'error'}>
            {test.data.status ? `${test.data.status}` : 'No answer'} · {test.data.ms} ms
          </Tag>
          <pre
            style={{
              whiteSpace: 'pre-wrap',
              overflowWrap: 'anywhere',
              maxHeight: 240,
              overflow: 'auto',
              marginTop: 8,
            }}
          >
            {test.data.body}
          </pre>
        </div>
      )}
    </Modal>
  );
}
