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
}

/** `noAnswer`: the request got no answer at all (SPEC §8 words that case differently). */
export type LoginOutcome = { ok: true; results: LoginResults } | { ok: false; noAnswer: boolean };

/**
 * POST /v1/auth/login with plain fetch: the sign-in page (features/auth/sign-in-page.tsx) is
 * shown before the app, and its RTK Query, loads, and signs in the same way inside the app.
 */
export async function requestLogin(body: LoginRequest): Promise<LoginOutcome> {
  let response: Response;
  try {
    response = await fetch(apiUrl('/v1/auth/login'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, noAnswer: true };
  }
  if (!response.ok) return { ok: false, noAnswer: false };
  try {
    const envelope = (await response.json()) as ApiEnvelope<LoginResults>;
    return envelope.results?.accessToken ? { ok: true, results: envelope.results } : { ok: false, noAnswer: false };
  } catch {
    return { ok: false, noAnswer: false };
  }
}
