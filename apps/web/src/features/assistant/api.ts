import type {
  AiAutoReplyAction,
  AiAutoReplyOptions,
  AiDocument as AiDocumentDto,
  AiFaq,
  AiFaqRequest,
  AiFlow as AiFlowDto,
  AiLocationSetting,
  AiOnboardRequest,
  AiPlayAnswer,
  AiPlayEnquiry,
  AiPlayMessage,
  AiRating,
  AiStatus,
  AiTool as AiToolDto,
  AiToolParameters as AiToolParametersDto,
  AiToolTestResult as AiToolTestResultDto,
} from '@switchboard/shared';
import { AI_TIMEOUT_MS } from '@switchboard/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope, type Page } from '@/lib/api-client.ts';
import { sharedQueryKeys } from '@/lib/query-keys.ts';

export type { AiFaq, AiLocationSetting, AiPlayEnquiry, AiPlayMessage, AiRating, AiStatus };

const KEYS = {
  status: ['ai', 'status'] as const,
  faqs: ['ai', 'faqs'] as const,
  play: ['ai', 'play'] as const,
  ratings: ['ai', 'ratings'] as const,
};

export function useAiStatus() {
  return useQuery({
    queryKey: KEYS.status,
    queryFn: async () => (await api.get<Envelope<AiStatus>>('/business/ai')).data.body,
  });
}

export function useFaqs(query: { page: number; status: 'active' | 'proposed'; q: string }) {
  return useQuery({
    queryKey: [...KEYS.faqs, query],
    queryFn: async () =>
      (
        await api.get<Envelope<Page<AiFaq>>>('/business/ai/faqs', {
          params: {
            page: query.page,
            page_size: 10,
            status: query.status,
            ...(query.q ? { q: query.q } : {}),
          },
        })
      ).data.body,
    placeholderData: keepPreviousData,
  });
}

/** After a change to what the assistant knows: the lists and the counts on the page. */
function useKnowledgeChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: KEYS.faqs });
    void queryClient.invalidateQueries({ queryKey: KEYS.status });
  };
}

export function useSaveFaq() {
  const changed = useKnowledgeChanged();
  return useMutation({
    mutationFn: async ({ id, ...input }: AiFaqRequest & { id?: string }) =>
      id
        ? (await api.put<Envelope<AiFaq>>(`/business/ai/faqs/${encodeURIComponent(id)}`, input)).data.body
        : (await api.post<Envelope<AiFaq>>('/business/ai/faqs', input)).data.body,
    onSuccess: changed,
  });
}

export function useAcceptFaq() {
  const changed = useKnowledgeChanged();
  return useMutation({
    mutationFn: async (id: string) =>
      (await api.put<Envelope<AiFaq>>(`/business/ai/faqs/${encodeURIComponent(id)}`, { status: 'active' }))
        .data.body,
    onSuccess: changed,
  });
}

export function useDeleteFaq() {
  const changed = useKnowledgeChanged();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/business/ai/faqs/${encodeURIComponent(id)}`),
    onSuccess: changed,
  });
}

export function useOnboard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AiOnboardRequest) =>
      (await api.post<Envelope<AiStatus>>('/business/ai/onboard', input)).data.body,
    onSuccess: (status) => {
      queryClient.setQueryData(KEYS.status, status);
      void queryClient.invalidateQueries({ queryKey: KEYS.faqs });
      // `/user/me` carries ai_info.onboarding_completed.
      void queryClient.invalidateQueries({ queryKey: sharedQueryKeys.me });
    },
  });
}

export function useToggleAutoReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      location_id: string;
      action: AiAutoReplyAction;
      options?: Partial<AiAutoReplyOptions>;
    }) =>
      (
        await api.put<Envelope<AiLocationSetting>>(`/business/ai-auto-reply/toggle/${input.action}`, {
          location_id: input.location_id,
          ...(input.options ? { options: input.options } : {}),
        })
      ).data.body,
    onSuccess: (setting) =>
      queryClient.setQueryData<AiStatus>(KEYS.status, (status) =>
        status
          ? {
              ...status,
              locations: status.locations.map((l) => (l.location_id === setting.location_id ? setting : l)),
            }
          : status,
      ),
  });
}

export function usePlayConversations() {
  return useQuery({
    queryKey: [...KEYS.play, 'list'],
    queryFn: async () =>
      (await api.get<Envelope<{ items: AiPlayEnquiry[] }>>('/business/ai/enquiries')).data.body.items,
  });
}

export function usePlayMessages(id: string | null) {
  return useQuery({
    queryKey: [...KEYS.play, id],
    enabled: id !== null,
    queryFn: async () =>
      (
        await api.get<Envelope<Page<AiPlayMessage>>>(
          `/business/ai/enquiries/${encodeURIComponent(id ?? '')}/messages`,
          {
            params: { page: 1, page_size: 50 },
          },
        )
      ).data.body.items.toReversed(),
  });
}

export function usePlaySend() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string | null; message: string; location_id: string | null }) =>
      (
        await api.post<Envelope<AiPlayAnswer>>(
          input.id ? `/business/ai/messages/${encodeURIComponent(input.id)}` : '/business/ai/messages',
          { message: input.message, location_id: input.location_id },
          { timeout: AI_TIMEOUT_MS },
        )
      ).data.body,
    onSuccess: (answer) => {
      queryClient.setQueryData<AiPlayMessage[]>([...KEYS.play, answer.enquiry.id], (list) => [
        ...(list ?? []),
        answer.customer_message,
        answer.reply,
      ]);
      void queryClient.invalidateQueries({ queryKey: [...KEYS.play, 'list'] });
    },
  });
}

export function useRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      message_id: string;
      rating: 'up' | 'down';
      feedback: string;
      message: string;
      response: string;
      location_id: string | null;
    }) =>
      (
        await api.post<Envelope<AiRating>>(
          `/business/ai/messages/${encodeURIComponent(input.message_id)}/rating`,
          {
            rating: input.rating,
            feedback: input.feedback,
            message: input.message,
            response: input.response,
            location_id: input.location_id,
          },
        )
      ).data.body,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEYS.ratings }),
  });
}

export function useRatings(page: number) {
  return useQuery({
    queryKey: [...KEYS.ratings, page],
    queryFn: async () =>
      (await api.get<Envelope<Page<AiRating>>>('/business/ai/ratings', { params: { page, page_size: 10 } }))
        .data.body,
    placeholderData: keepPreviousData,
  });
}

export type { AiDocument } from '@switchboard/shared';

const DOCUMENTS_KEY = ['ai', 'documents'] as const;

/** What the assistant learns from; looked at again every few seconds while one is still being read. */
export function useDocuments() {
  return useQuery({
    queryKey: DOCUMENTS_KEY,
    queryFn: async () =>
      (await api.get<Envelope<{ items: AiDocumentDto[] }>>('/business/ai/documents')).data.body.items,
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'processing') ? 2000 : false),
  });
}

function useDocumentsChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: DOCUMENTS_KEY });
    void queryClient.invalidateQueries({ queryKey: KEYS.faqs });
    void queryClient.invalidateQueries({ queryKey: KEYS.status });
  };
}

/** Files and a website address, sent together; the server says what it could not read. */
export function useUploadKnowledge() {
  const changed = useDocumentsChanged();
  return useMutation({
    mutationFn: async (input: { files: File[]; url: string; recrawl: string }) => {
      const form = new FormData();
      for (const file of input.files) form.append('files', file, file.name);
      if (input.url.trim()) {
        form.append('url', input.url.trim());
        form.append('recrawl', input.recrawl);
      }
      // The form shows what went wrong beside it.
      return (
        await api.post<Envelope<{ items: AiDocumentDto[] }>>('/business/ai/upload', form, { silent: true })
      ).data.body.items;
    },
    onSuccess: changed,
  });
}

export function useCrawlNow() {
  const changed = useDocumentsChanged();
  return useMutation({
    mutationFn: (id: string) => api.post(`/business/ai/documents/${encodeURIComponent(id)}/crawl`),
    onSuccess: changed,
  });
}

export function useSetRecrawl() {
  const changed = useDocumentsChanged();
  return useMutation({
    mutationFn: (input: { id: string; recrawl: string }) =>
      api.put(`/business/ai/documents/${encodeURIComponent(input.id)}`, { recrawl: input.recrawl }),
    onSuccess: changed,
  });
}

export function useDeleteDocument() {
  const changed = useDocumentsChanged();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/business/ai/documents/${encodeURIComponent(id)}`),
    onSuccess: changed,
  });
}

export type { AiFlow, AiFlowStep, AiTool, AiToolTestResult } from '@switchboard/shared';

const TOOLS_KEY = ['ai', 'tools'] as const;
const FLOWS_KEY = ['ai', 'flows'] as const;

export function useTools() {
  return useQuery({
    queryKey: TOOLS_KEY,
    queryFn: async () =>
      (await api.get<Envelope<{ items: AiToolDto[] }>>('/business/ai/tools')).data.body.items,
  });
}

/** A tool as the form sends it; on an edit, a header left blank keeps its stored value and null removes it. */
export type ToolDraft = {
  id?: string;
  name: string;
  description: string;
  method: string;
  url_template: string;
  body_template: string | null;
  headers: Record<string, string | null>;
  parameters: AiToolParametersDto;
};

export function useSaveTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...tool }: ToolDraft) => {
      if (id)
        return (
          await api.put<Envelope<AiToolDto>>(`/business/ai/tools/${encodeURIComponent(id)}`, tool, {
            silent: true,
          })
        ).data.body;
      const headers = Object.fromEntries(
        Object.entries(tool.headers).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      return (
        await api.post<Envelope<{ items: AiToolDto[] }>>(
          '/business/ai/tools',
          { tools: [{ ...tool, headers }] },
          { silent: true },
        )
      ).data.body.items[0];
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOOLS_KEY }),
  });
}

export function useDeleteTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/business/ai/tools/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOOLS_KEY }),
  });
}

export function useTestTool() {
  return useMutation({
    mutationFn: async (input: { id: string; arguments: Record<string, unknown> }) =>
      (
        await api.post<Envelope<AiToolTestResultDto>>(
          `/business/ai/tools/${encodeURIComponent(input.id)}/test`,
          {
            arguments: input.arguments,
          },
        )
      ).data.body,
  });
}

export function useFlows() {
  return useQuery({
    queryKey: FLOWS_KEY,
    queryFn: async () =>
      (await api.get<Envelope<{ items: AiFlowDto[] }>>('/business/ai-flows')).data.body.items,
  });
}

export type FlowDraft = Omit<AiFlowDto, 'id' | 'updated_at'> & { id?: string };

export function useSaveFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...flow }: FlowDraft) =>
      id
        ? (
            await api.put<Envelope<AiFlowDto>>(`/business/ai-flows/${encodeURIComponent(id)}`, flow, {
              silent: true,
            })
          ).data.body
        : (await api.post<Envelope<AiFlowDto>>('/business/ai-flows', flow, { silent: true })).data.body,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FLOWS_KEY }),
  });
}

export function useSetFlowAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; action: AiAutoReplyAction }) =>
      (
        await api.put<Envelope<AiFlowDto>>(`/business/ai-flows/${encodeURIComponent(input.id)}`, {
          action: input.action,
        })
      ).data.body,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FLOWS_KEY }),
  });
}

export function useDeleteFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/business/ai-flows/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FLOWS_KEY }),
  });
}

export function useGenerateFlows() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await api.post<Envelope<{ items: AiFlowDto[] }>>('/business/ai/flows/auto-generate')).data.body.items,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FLOWS_KEY }),
  });
}
