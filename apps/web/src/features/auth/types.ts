import type { LoginResult, MeBusiness, MeLocation, UserMe } from '@switchboard/shared';

export type { LoginResult, MeBusiness, MeLocation };

export type Me = UserMe & {
  /** Added after load from GET /business/mybusiness/features; empty when that call fails. */
  feature_flags: Record<string, unknown>;
};
