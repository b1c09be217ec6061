import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  HolderOutlined,
  PlusOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { AI_CUSTOMER_FIELDS, AI_FLOW_STEP_KINDS, type AiAutoReplyAction } from '@switchboard/shared';
import { Alert, Button, Input, List, Modal, Segmented, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { notify } from '@/lib/notifier.ts';
import {
  type AiFlow,
  type AiFlowStep,
  type AiTool,
  type FlowDraft,
  useDeleteFlow,
  useFlows,
  useGenerateFlows,
  useSaveFlow,
  useSetFlowAction,
  useTools,
} from '../api.ts';
import { useItemLayout } from '../use-item-layout.ts';

const KIND_LABEL: Record<AiFlowStep['kind'], string> = {
  ask: 'Ask a question',
  collect: 'Keep in the customer record',
  tool: 'Call a tool',
  message: 'Send a message',
  handoff: 'Hand over to a person',
};
const FIELD_LABEL: Record<(typeof AI_CUSTOMER_FIELDS)[number], string> = {
  name: 'Full name',
  first_name: 'First name',
  email: 'Email',
  phone: 'Phone',
};
const ACTIONS: { value: AiAutoReplyAction; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'suggest', label: 'Suggest' },
  { value: 'auto', label: 'On' },
];

const blank = (): FlowDraft => ({
  name: '',
  keywords: [],
  intent: '',
  action: 'off',
  steps: [],
  location_ids: null,
});

/**
 * Scripted conversations: started when a customer's message has one of the flow's words, then step by step
 * (ask, keep, call a tool, say, hand over). Steps are dragged (or moved with the arrows) into order.
 */
export function FlowsPanel({ canManage }: { canManage: boolean }) {
  const itemLayout = useItemLayout();
  const flows = useFlows();
  const tools = useTools();
  const generate = useGenerateFlows();
  const setAction = useSetFlowAction();
  const remove = useDeleteFlow();
  const [editing, setEditing] = useState<FlowDraft | null>(null);

  return (
    <Panel
      title="Flows"
      extra={
        canManage && (
          <Space wrap>
            <Button
              icon={<ThunderboltOutlined />}
              loading={generate.isPending}
              onClick={() =>
                generate.mutate(undefined, {
                  onSuccess: (made) =>
                    notify.success(
                      made.length
                        ? `Made ${made.length} flows: switched off until you turn them on`
                        : 'You have those already',
                    ),
                })
              }
            >
              Make the usual flows
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(blank())}>
              Add flow
            </Button>
          </Space>
        )
      }
      flush
    >
      <List<AiFlow>
        itemLayout={itemLayout}
        loading={flows.isPending}
        dataSource={flows.data ?? []}
        locale={{
          emptyText: flows.isError
            ? failureText(flows.error)
            : 'No flows yet. A flow books an appointment or takes a call-back request step by step.',
        }}
        renderItem={(flow) => (
          <List.Item
            style={{ paddingInline: 16, flexWrap: 'wrap', gap: 8 }}
            actions={
              canManage
                ? [
                    <Segmented<AiAutoReplyAction>
                      key="action"
                      size="small"
                      aria-label={`${flow.name} is`}
                      value={flow.action}
                      options={ACTIONS}
                      onChange={(action) => setAction.mutate({ id: flow.id, action })}
                    />,
                    <Button
                      key="edit"
                      size="small"
                      onClick={() => setEditing({ ...flow, location_ids: flow.location_ids })}
                    >
                      Edit
                    </Button>,
                    <Button
                      key="delete"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`Delete ${flow.name}`}
                      onClick={() =>
                        Modal.confirm({
                          title: `Delete the flow “${flow.name}”?`,
                          okText: 'Delete',
                          okButtonProps: { danger: true },
                          onOk: () => remove.mutateAsync(flow.id).then(() => notify.success('Flow deleted')),
                        })
                      }
                    />,
                  ]
                : [
                    <Tag key="action">
                      {flow.action === 'auto' ? 'On' : flow.action === 'suggest' ? 'Suggests' : 'Off'}
                    </Tag>,
                  ]
            }
          >
            <List.Item.Meta
              title={flow.name}
              description={
                <>
                  {flow.keywords.length
                    ? `When a customer says ${flow.keywords.map((k) => `“${k}”`).join(', ')}`
                    : 'No words start it yet'}
                  {' · '}
                  {flow.steps.length} {flow.steps.length === 1 ? 'step' : 'steps'}
                </>
              }
            />
          </List.Item>
        )}
      />
      {editing && <FlowEditor draft={editing} tools={tools.data ?? []} onClose={() => setEditing(null)} />}
    </Panel>
  );
}

function FlowEditor({ draft, tools, onClose }: { draft: FlowDraft; tools: AiTool[]; onClose: () => void }) {
  const save = useSaveFlow();
  const [flow, setFlow] = useState<FlowDraft>(draft);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const steps = flow.steps;
  const setSteps = (next: AiFlowStep[]) =>
    setFlow({ ...flow, steps: next.map((s, position) => ({ ...s, position })) });
  const move = (from: number, to: number) => {
    if (to < 0 || to >= steps.length || from === to) return;
    const next = [...steps];
    const [item] = next.splice(from, 1);
    if (item) next.splice(to, 0, item);
    setSteps(next);
  };
  const change = (i: number, patch: Partial<AiFlowStep>) =>
    setSteps(steps.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const saved = steps.flatMap((s) => (s.save_as ? [s.save_as] : []));

  const submit = () => {
    setProblem(null);
    if (!flow.name.trim()) return setProblem('Name the flow.');
    save.mutate(flow, {
      onSuccess: () => {
        notify.success('Flow saved');
        onClose();
      },
      onError: (error) => setProblem(failureText(error)),
    });
  };

  return (
    <Modal
      title={draft.id ? 'Edit flow' : 'Add a flow'}
      open
      okText="Save"
      confirmLoading={save.isPending}
      onOk={submit}
      onCancel={onClose}
      width={720}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input
          aria-label="Flow name"
          placeholder="Book an appointment"
          value={flow.name}
          maxLength={200}
          onChange={(e) => setFlow({ ...flow, name: e.target.value })}
        />
        <Select
          mode="tags"
          aria-label="Words that start it"
          placeholder="Words that start it: book, appointment…"
          value={flow.keywords}
          open={false}
          suffixIcon={null}
          onChange={(keywords) => setFlow({ ...flow, keywords })}
          style={{ width: '100%' }}
        />
        <Input
          aria-label="What the customer wants"
          placeholder="What the customer wants, in a few words (for an AI model)"
          value={flow.intent}
          maxLength={500}
          onChange={(e) => setFlow({ ...flow, intent: e.target.value })}
        />
        <Typography.Text strong>Steps</Typography.Text>
        <ol className="ai-steps" aria-label="Steps">
          {steps.map((step, i) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: a step is its place in the list.
              key={i}
              className="ai-step"
              draggable
              data-dragging={dragged === i}
              onDragStart={() => setDragged(i)}
              onDragOver={(e) => e.preventDefault()}
              onDrop={() => {
                if (dragged !== null) move(dragged, i);
                setDragged(null);
              }}
              onDragEnd={() => setDragged(null)}
            >
              <div className="ai-step-head">
                <HolderOutlined aria-hidden="true" style={{ cursor: 'grab' }} />
                <span>{i + 1}.</span>
                <Select
                  aria-label={`Step ${i + 1} kind`}
                  size="small"
                  value={step.kind}
                  style={{ minWidth: 200 }}
                  options={AI_FLOW_STEP_KINDS.map((k) => ({ value: k, label: KIND_LABEL[k] }))}
                  onChange={(kind) => change(i, { kind })}
                />
                <span style={{ marginLeft: 'auto' }}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowUpOutlined />}
                    aria-label={`Move step ${i + 1} up`}
                    disabled={i === 0}
                    onClick={() => move(i, i - 1)}
                  />
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    aria-label={`Move step ${i + 1} down`}
                    disabled={i === steps.length - 1}
                    onClick={() => move(i, i + 1)}
                  />
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Remove step ${i + 1}`}
                    onClick={() => setSteps(steps.filter((_, j) => j !== i))}
                  />
                </span>
              </div>
              {(step.kind === 'ask' || step.kind === 'message' || step.kind === 'handoff') && (
                <Input.TextArea
                  aria-label={`Step ${i + 1} text`}
                  autoSize={{ minRows: 1, maxRows: 4 }}
                  maxLength={2000}
                  placeholder={
                    step.kind === 'handoff'
                      ? 'What the customer is told (empty: the usual words)'
                      : 'What the assistant says'
                  }
                  value={step.text ?? ''}
                  onChange={(e) => change(i, { text: e.target.value })}
                />
              )}
              {(step.kind === 'ask' || step.kind === 'tool') && (
                <Input
                  aria-label={`Step ${i + 1} keep the answer as`}
                  addonBefore="Keep the answer as"
                  placeholder={step.kind === 'ask' ? 'full_name' : 'slots'}
                  value={step.save_as ?? ''}
                  onChange={(e) =>
                    change(i, {
                      save_as: e.target.value.toLowerCase().replace(/[^a-z0-9_]/g, '') || undefined,
                    })
                  }
                />
              )}
              {step.kind === 'collect' && (
                <Space wrap>
                  <Select
                    aria-label={`Step ${i + 1} answer`}
                    placeholder="The answer kept as…"
                    value={step.from}
                    style={{ minWidth: 180 }}
                    options={saved.map((s) => ({ value: s, label: s }))}
                    onChange={(from) => change(i, { from })}
                  />
                  <span>goes into</span>
                  <Select
                    aria-label={`Step ${i + 1} customer field`}
                    placeholder="Customer field"
                    value={step.field}
                    style={{ minWidth: 140 }}
                    options={AI_CUSTOMER_FIELDS.map((f) => ({ value: f, label: FIELD_LABEL[f] }))}
                    onChange={(field) => change(i, { field })}
                  />
                </Space>
              )}
              {step.kind === 'tool' && (
                <Space direction="vertical" style={{ width: '100%' }}>
                  <Select
                    aria-label={`Step ${i + 1} tool`}
                    placeholder={tools.length ? 'Choose a tool' : 'Add a tool first (Tools)'}
                    value={step.tool_id}
                    options={tools.map((t) => ({ value: t.id, label: t.name }))}
                    onChange={(tool_id) => change(i, { tool_id })}
                  />
                  {Object.keys(tools.find((t) => t.id === step.tool_id)?.parameters.properties ?? {}).map(
                    (param) => (
                      <Input
                        key={param}
                        aria-label={`Step ${i + 1} ${param}`}
                        addonBefore={param}
                        placeholder={saved[0] ? `{${saved[0]}}` : 'a value'}
                        value={step.arguments?.[param] ?? ''}
                        onChange={(e) =>
                          change(i, { arguments: { ...step.arguments, [param]: e.target.value } })
                        }
                      />
                    ),
                  )}
                </Space>
              )}
            </li>
          ))}
        </ol>
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          onClick={() => setSteps([...steps, { position: steps.length, kind: 'ask', text: '' }])}
        >
          Add step
        </Button>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          Texts can use {'{first_name}'}, {'{business_name}'}, {'{location_name}'} and any kept answer as{' '}
          {'{name}'} (a tool's answer field as {'{slots.first}'}).
        </Typography.Text>
        {problem && <Alert type="error" showIcon message={problem} />}
      </Space>
    </Modal>
  );
}
