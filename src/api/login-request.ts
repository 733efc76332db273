import type { ApiEnvelope, LoginUser } from '../domain/entities';
import { apiUrl } from './api-url';

export interface LoginRequest {
  userName: string;
  password: string;
}

export interface LoginResults {
  user: LoginUser;
  accessToken: string;
  refreshToken: string;
  /** The role requires two-factor sign-in and the account has none yet: enrol on the profile first. */
  twoFactorSetupRequired?: true;
}

/**
 * `noAnswer`: the request got no answer at all (SPEC §8 words that case differently). `challenge`:
 * the password was right and the account has two-factor sign-in; its code goes to requestTwoFactorVerify.
 */
export type LoginOutcome = { ok: true; results: LoginResults } | { ok: false; noAnswer: boolean } | { ok: 'challenge'; challenge: string };

/** The second step: a 6-digit code, or else a recovery code. */
export interface TwoFactorVerifyRequest {
  challenge: string;
  code?: string;
  recoveryCode?: string;
}

/** A wrong code leaves the challenge open (`ended` false) until it has taken 5; then the person signs in again. */
export type TwoFactorOutcome = { ok: true; results: LoginResults } | { ok: false; noAnswer: boolean; ended: boolean };

async function post(path: string, body: unknown): Promise<Response | undefined> {
  try {
    return await fetch(apiUrl(path), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    return undefined;
  }
}

const ENDED = 'This sign-in has ended; please sign in again';

/** POST /v1/auth/2fa/verify, as requestLogin is sent. */
export async function requestTwoFactorVerify(body: TwoFactorVerifyRequest): Promise<TwoFactorOutcome> {
  const response = await post('/v1/auth/2fa/verify', body);
  if (!response) return { ok: false, noAnswer: true, ended: false };
  try {
    const envelope = (await response.json()) as ApiEnvelope<LoginResults>;
    if (response.ok && envelope.results?.accessToken) return { ok: true, results: envelope.results };
    return { ok: false, noAnswer: false, ended: envelope.message === ENDED };
  } catch {
    return { ok: false, noAnswer: false, ended: false };
  }
}

/**
 * POST /v1/auth/login with plain fetch: the sign-in page (features/auth/sign-in-page.tsx) is
 * shown before the app, and its RTK Query, loads, and signs in the same way inside the app.
 */
export async function requestLogin(body: LoginRequest): Promise<LoginOutcome> {
  const response = await post('/v1/auth/login', body);
  if (!response) return { ok: false, noAnswer: true };
  if (!response.ok) return { ok: false, noAnswer: false };
  try {
    const envelope = (await response.json()) as ApiEnvelope<LoginResults | { twoFactorRequired: true; challenge: string }>;
    const results = envelope.results;
    if (results && 'challenge' in results) return { ok: 'challenge', challenge: results.challenge };
    return results?.accessToken ? { ok: true, results } : { ok: false, noAnswer: false };
  } catch {
    return { ok: false, noAnswer: false };
  }
}
