import type { MemberDto } from '@switchboard/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';

export type Invitation = {
  id: string;
  email: string;
  full_name: string | null;
  role: 'owner' | 'staff';
  invited_by: string | null;
  location_names: string[] | null;
  created_at: string;
  expires_at: string;
};

const keys = { members: ['team', 'members'] as const, invitations: ['team', 'invitations'] as const };

export function useMembers() {
  return useQuery({
    queryKey: keys.members,
    queryFn: async () =>
      (await api.get<Envelope<{ items: MemberDto[] }>>('/business/members')).data.body.items,
  });
}

export function useInvitations(enabled: boolean) {
  return useQuery({
    queryKey: keys.invitations,
    queryFn: async () =>
      (await api.get<Envelope<{ items: Invitation[] }>>('/business/members/invitations')).data.body.items,
    enabled,
  });
}

export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      email: string;
      full_name?: string;
      role: 'owner' | 'staff';
      location_ids?: string[] | null;
    }) =>
      (await api.post<Envelope<{ email: string }>>('/business/members/invitations', input, { silent: true }))
        .data.body,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.invitations }),
  });
}

export function useWithdrawInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => api.delete(`/business/members/invitations/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.invitations }),
  });
}

/** Gives a team member the locations they work at (null: all of them). */
export function useMemberLocations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { userId: string; location_ids: string[] | null }) =>
      (
        await api.put<Envelope<{ items: MemberDto[] }>>(
          `/business/members/${encodeURIComponent(input.userId)}/locations`,
          { location_ids: input.location_ids },
          { silent: true },
        )
      ).data.body.items,
    onSuccess: (items) => queryClient.setQueryData(keys.members, items),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) => api.delete(`/business/members/${encodeURIComponent(userId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.members }),
  });
}

/**
 * A new link confirming the business's email (it goes to the owner's address): invitations wait for it, and the
 * refusal offers this.
 */
export function useResendConfirmation() {
  return useMutation({
    mutationFn: async () =>
      (
        await api.put<Envelope<{ sent: boolean; already_verified: boolean; email: string | null }>>(
          '/business/register/resend-link',
          {},
          { silent: true },
        )
      ).data.body,
  });
}
