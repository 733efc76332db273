import type { VoteFlag } from './vote-integrity';
import type { CategoryLevel } from './category-levels';
import type { ResolveReason } from './resolution';
import type { Role } from './roles';

/** Entities as the API answers them (SPEC §3); ids are UUID strings exposed as `_id`. */
export interface UserRef {
  _id: string;
  userName: string;
}

export interface User extends UserRef {
  role: Role;
  email?: string | null;
  isAfcon: boolean;
  createdAt: string;
  /** An admin disabled the account: it cannot sign in. */
  disabled: boolean;
  lastSignInAt: string | null;
  twoFactorEnabled: boolean;
}

export interface ServiceCodeRef {
  _id?: string;
  name: string;
}

/** What login answers and the SPA keeps in the session. */
export interface LoginUser {
  id: string;
  userName: string;
  role: Role;
  serviceCode: ServiceCodeRef[];
  isAfcon: boolean;
  /** Kept by the SPA from the sign-in's answer: the role requires two-factor sign-in and it is not on yet. */
  twoFactorSetupRequired?: boolean;
}

export type LevelPrices = Partial<Record<CategoryLevel, number | null>>;

export interface Category extends LevelPrices {
  _id: string;
  name: string;
  description?: string | null;
  user: UserRef | null;
  createdAt: string;
}

export interface ServiceCode {
  _id: string;
  name: string;
  description?: string | null;
  category: { _id: string; name: string; user: UserRef | null } | null;
  createdAt: string;
}

export interface Content {
  _id: string;
  name?: string | null;
  message: string;
  description?: string | null;
  categoryLevel: CategoryLevel;
  category: { _id: string; name: string } | null;
  createdBy: UserRef | null;
  active: boolean;
  createdAt: string;
}

export type SmsStatus = 'queued' | 'sent' | 'delivered' | 'failed';

export interface SmsRecord {
  _id: string;
  user: UserRef | null;
  phoneNumber: string;
  message: string;
  categoryLevel?: CategoryLevel | null;
  status: SmsStatus;
  createdAt: string;
}

export interface Transaction {
  _id: string;
  name: string;
  shortCode: { name: string } | null;
  phoneNumber: string;
  network: string;
  createdAt: string;
  callbackTime?: string | null;
  isComplete: boolean;
  isDeleted: boolean;
  isResolved: boolean;
  categoryLevel?: string | null;
  category?: { _id: string; name: string } | string | null;
  amount?: number | null;
  /** A campaign vote's campaign (`world-cup-2022`, `afcon-2024`) and round; null on other calls. */
  campaignKey?: string | null;
  round?: string | null;
  /** A vote's pick; with `teamName2`, the pick's game is 'teamName2 vs teamName' (SPEC §2). */
  teamName?: string | null;
  teamName2?: string | null;
  messageStatuses?: string | null;
  ticket?: { message: string } | null;
  /** The mobile-money reference, for reconciling with the payment provider. */
  paymentRef?: string | null;
  /** Who marked the failed call resolved, and when (null until then, or when that user is gone). */
  resolvedBy?: UserRef | null;
  resolvedAt?: string | null;
  /** Why it was resolved (a key of RESOLVE_REASON_LABELS) and the resolver's note; null when not given. */
  resolvedReason?: ResolveReason | null;
  resolvedNote?: string | null;
  /** Why the payment failed in the provider's own words, or null when it gave none. */
  failureReason?: string | null;
  /** What completed refunds gave back, in UGX (0 when none). */
  refundedAmount?: number;
}

export interface VoteTransaction {
  _id: string;
  createdAt: string;
  teamName: string;
  teamName2?: string | null;
}

export interface VoteRow {
  _id: string;
  phoneNumber: string;
  serviceCode: string;
  count: number;
  transactions: VoteTransaction[];
  /** Vote integrity: the most votes the number cast in any minute, and its flags. */
  peakPerMinute?: number;
  flags?: VoteFlag[];
}

/** Every answer carries this envelope (DESIGN §3). */
export interface ApiEnvelope<T> {
  status: boolean;
  message: string;
  results: T;
}

export interface FieldError {
  field: string;
  message: string;
}

export interface ApiFailure {
  status: false;
  message: string;
  errors: FieldError[];
}
