import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** The last line of a CSV download that failed part way, so nobody takes a cut file for the whole. */
export const CSV_FAILED_LINE = 'ERROR: the export failed part way, this file is incomplete; please download it again\r\n';

export interface CsvDownload<T> {
  file: string;
  header: string;
  chunks: AsyncIterable<T[]>;
  line: (row: T) => string;
}

/** Rows an export reads per query: a few milliseconds of the embedded database's one thread each. */
export const CSV_CHUNK_ROWS = 500;

/** The piece of long work whose turn it is; every other waits. */
let currentTurn: Promise<unknown> = Promise.resolve();

/**
 * Runs one piece of long work (an export chunk: its query and its CSV text) when the pieces before
 * it are done and after the requests already waiting have started (setImmediate runs after pending
 * I/O), so however many long jobs run, a USSD hop's query waits behind one piece at most (DESIGN §4).
 */
export function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const turn = currentTurn.then(() => new Promise((resolve) => setImmediate(resolve))).then(work);
  currentTurn = turn.catch(() => undefined);
  return turn;
}

/**
 * Sends a CSV download from chunks of rows (of CSV_CHUNK_ROWS), each read and written in its turn
 * (`inTurn`). The first chunk is read before the first byte, so a query that fails at once gets an
 * error answer instead of a 200; one that fails later ends the file with CSV_FAILED_LINE rather
 * than a silently truncated file.
 */
export async function sendCsv<T>(reply: FastifyReply, download: CsvDownload<T>) {
  const rows = download.chunks[Symbol.asyncIterator]();
  const nextText = () =>
    inTurn(async () => {
      const next = await rows.next();
      return next.done ? undefined : next.value.map(download.line).join('');
    });
  const first = await nextText();
  async function* csv() {
    yield download.header;
    try {
      for (let text = first; text !== undefined; text = await nextText()) yield text;
    } catch (error) {
      reply.log.error({ err: error }, 'CSV export failed part way');
      yield CSV_FAILED_LINE;
    }
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${download.file.replace(/[^\w.-]+/g, '_')}"`)
    .send(Readable.from(csv()));
}
