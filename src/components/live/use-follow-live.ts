import { useEffect } from 'react';
import { followLive } from '../../api/live-follow';

/**
 * Follows one service code live while the screen is mounted (`null`: every code, as a dashboard
 * with no code chosen shows); `undefined` follows nothing yet (the code is not known, or the
 * screen does not grow, like a search).
 */
export function useFollowLive(code: string | null | undefined): void {
  useEffect(() => (code === undefined ? undefined : followLive(code)), [code]);
}
