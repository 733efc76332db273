/** The part of autocannon's programmatic API the API benchmark uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }
  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }
  export interface Options {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    workers?: number;
    /** Requests each connection sends in turn, paths relative to `url`. */
    requests?: { method?: 'GET' | 'POST'; path: string; body?: string }[];
  }
  export default function autocannon(options: Options): Promise<Result>;
}
