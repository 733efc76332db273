import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';

/** A downloaded CSV, kept as text: a Blob is not a serializable store value. */
export interface CsvFile {
  csv: string;
  fileName: string;
}

/** The CSV text of a download named as the server's Content-Disposition says, or `fallback`. */
export function csvFileOf(csv: string, meta: FetchBaseQueryMeta | undefined, fallback: string): CsvFile {
  const fileName = /filename="?([^";]+)"?/.exec(meta?.response?.headers.get('content-disposition') ?? '')?.[1] ?? fallback;
  return { csv, fileName };
}
