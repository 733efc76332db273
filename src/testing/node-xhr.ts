type Listener = ((event: ProgressEvent) => void) | null;

/** A progress event as the SPA reads one: how much of how much. */
const progress = (type: string, loaded: number, total: number) => ({ type, lengthComputable: true, loaded, total }) as ProgressEvent;

/** The bytes of a body the SPA sends: text, or a jsdom File/Blob (read as a browser would, with FileReader). */
async function bytesOf(body: unknown, FileReaderClass: typeof FileReader): Promise<Uint8Array> {
  if (body === undefined || body === null) return new Uint8Array();
  if (typeof body === 'string') return new TextEncoder().encode(body);
  return new Promise((resolve, reject) => {
    const reader = new FileReaderClass();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(body as Blob);
  });
}

/** Chunks of what undici reads, so upload progress moves as the body goes out. */
const CHUNK = 64 * 1024;

/**
 * The part of XMLHttpRequest the SPA uses (the statement upload, for its upload progress), over
 * Node's fetch: jsdom's own XMLHttpRequest enforces CORS, which the real API on another port of
 * the test machine does not answer, as jsdom's missing fetch is replaced by Node's for the same
 * reason (jsdom-with-fetch.ts). The body streams out in 64 kB chunks, each one an `upload.onprogress`.
 */
export function nodeXmlHttpRequest(FileReaderClass: typeof FileReader) {
  return class NodeXMLHttpRequest {
    status = 0;
    responseText = '';
    readonly upload: { onprogress: Listener } = { onprogress: null };
    onload: Listener = null;
    onerror: Listener = null;
    onabort: Listener = null;
    private method = 'GET';
    private url = '';
    private headers: Record<string, string> = {};
    private controller = new AbortController();

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }

    abort() {
      this.controller.abort();
    }

    send(body?: unknown) {
      void this.run(body);
    }

    private async run(body: unknown) {
      try {
        const bytes = await bytesOf(body, FileReaderClass);
        const onProgress = this.upload.onprogress;
        let sent = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent >= bytes.length) return controller.close();
            const chunk = bytes.subarray(sent, sent + CHUNK);
            sent += chunk.length;
            controller.enqueue(chunk);
            onProgress?.(progress('progress', sent, bytes.length));
          },
        });
        const hasBody = this.method !== 'GET' && this.method !== 'HEAD';
        const response = await fetch(this.url, {
          method: this.method,
          headers: this.headers,
          signal: this.controller.signal,
          ...(hasBody ? { body: stream, duplex: 'half' } : {}),
        } as RequestInit);
        this.status = response.status;
        this.responseText = await response.text();
        this.onload?.(progress('load', bytes.length, bytes.length));
      } catch {
        if (this.controller.signal.aborted) this.onabort?.(progress('abort', 0, 0));
        else this.onerror?.(progress('error', 0, 0));
      }
    }
  };
}
