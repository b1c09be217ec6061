import type { LoginResult, MeBusiness, MeLocation, UserMe } from '@switchboard/shared';

export type { LoginResult, MeBusiness, MeLocation };

export type Me = UserMe & {
  /**
   * Added after load from GET /business/mybusiness/features (sandbox, subscription status, flags); empty when
   * that call fails. The flags themselves also come with the user (`feature_flags`).
   */
  features: Record<string, unknown>;
};
