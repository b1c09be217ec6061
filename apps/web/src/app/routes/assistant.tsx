import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header.tsx';
import { AssistantSettings } from '@/features/assistant/components/assistant-settings.tsx';
import { useAppSelection } from '../layouts/use-app-selection.ts';

export default function AssistantRoute() {
  const { canManage } = useAppSelection();
  // `?tab=faqs`: opened at a section (the set-up checklist's "Add an FAQ").
  const [search] = useSearchParams();
  return (
    <>
      <PageHeader
        title="AI assistant"
        subtitle="Answers customers from your FAQs, suggests and tidies replies for your team, and hands over to a person when it is not sure."
      />
      <AssistantSettings canManage={canManage} initialTab={search.get('tab')} />
    </>
  );
}
