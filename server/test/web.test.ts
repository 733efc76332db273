import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { PRELOAD_MANIFEST } from '../../src/domain/first-visit';
import webPlugin from '../src/plugins/web';

const INDEX_HTML = '<!doctype html><html><body><div id="root"></div><script defer src="/assets/main.1a2b3c4d.js"></script></body></html>';
const MAIN_JS = `console.log(${JSON.stringify('dialdesk '.repeat(400))});`;

let webRoot: string;
let app: FastifyInstance;

/** A tiny built SPA as webpack leaves it: index.html, a hashed asset with its .br and .gz copies, a favicon. */
beforeAll(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-web-'));
  fs.mkdirSync(path.join(webRoot, 'assets'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const main = path.join(webRoot, 'assets', 'main.1a2b3c4d.js');
  fs.writeFileSync(main, MAIN_JS);
  fs.writeFileSync(`${main}.br`, zlib.brotliCompressSync(MAIN_JS));
  fs.writeFileSync(`${main}.gz`, zlib.gzipSync(MAIN_JS));
  app = Fastify();
  await app.register(webPlugin, { webRoot });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('hashed assets', () => {
  it('answer the brotli copy to a browser that accepts it', async () => {
    const response = await get('/assets/main.1a2b3c4d.js', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.rawPayload.length).toBeLessThan(MAIN_JS.length / 4);
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(MAIN_JS);
  });

  it('answer the gzip copy without brotli, and the plain file without either', async () => {
    const gzip = await get('/assets/main.1a2b3c4d.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(MAIN_JS);
    const plain = await get('/assets/main.1a2b3c4d.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(MAIN_JS);
  });

  it('are cached for a year, keyed on Accept-Encoding', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      const response = await get('/assets/main.1a2b3c4d.js', encoding);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toContain('Accept-Encoding');
    }
  });

  it('unhashed files are checked again on every visit', async () => {
    const response = await get('/favicon.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });
});

describe('index.html', () => {
  it('answers every client-side route with 200 and no-cache', async () => {
    for (const url of ['/', '/index.html', '/transactions', '/service/code?x=1']) {
      const response = await get(url, 'gzip, br');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(INDEX_HTML);
    }
  });

  it('is not answered for the API or for other methods', async () => {
    const api = await get('/v1/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ status: false });
    const post = await app.inject({ method: 'POST', url: '/transactions' });
    expect(post.statusCode).toBe(404);
  });
});

describe('index.html of a private path', () => {
  const HEAD_INDEX = '<!doctype html><html><head><script defer src="/assets/main.1a2b3c4d.js"></script></head><body><div id="root"></div></body></html>';
  const MANIFEST = {
    '/transactions': { scripts: ['/assets/app.11111111.js', '/assets/screen-transactions.22222222.js'], wideScripts: ['/assets/paged-data-grid.33333333.js'] },
  };
  let root: string;
  let withManifest: FastifyInstance;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-web-preload-'));
    fs.writeFileSync(path.join(root, 'index.html'), HEAD_INDEX);
    fs.writeFileSync(path.join(root, PRELOAD_MANIFEST), JSON.stringify(MANIFEST));
    withManifest = Fastify();
    await withManifest.register(webPlugin, { webRoot: root });
    await withManifest.ready();
  });
  afterAll(async () => {
    await withManifest.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const page = async (url: string) => (await withManifest.inject({ method: 'GET', url })).body;

  it("preloads the app's and the screen's scripts, the DataGrid's on wide screens only", async () => {
    const html = await page('/transactions');
    expect(html).toContain('<link rel="preload" as="script" fetchpriority="low" href="/assets/app.11111111.js">');
    expect(html).toContain('<link rel="preload" as="script" fetchpriority="low" href="/assets/screen-transactions.22222222.js">');
    expect(html).toContain('<link rel="preload" as="script" fetchpriority="low" href="/assets/paged-data-grid.33333333.js" media="(min-width: 600px)">');
    expect(html.indexOf('rel="preload"')).toBeLessThan(html.indexOf('</head>'));
  });

  it('matches the path as the router does: a trailing slash, any case, a query', async () => {
    const preloaded = await page('/transactions');
    for (const url of ['/transactions/', '/Transactions', '/transactions?page=2']) expect(await page(url)).toBe(preloaded);
  });

  it('leaves every other path, and the manifest itself, alone', async () => {
    for (const url of ['/', '/failed', '/transactions/extra', '/%2Ftransactions']) expect(await page(url)).toBe(HEAD_INDEX);
    expect(await page(`/${PRELOAD_MANIFEST}`)).toBe(HEAD_INDEX);
  });

  it('refuses a manifest that points outside the hashed assets', async () => {
    fs.writeFileSync(path.join(root, PRELOAD_MANIFEST), JSON.stringify({ '/x': { scripts: ['https://evil.example/x.js'], wideScripts: [] } }));
    const app = Fastify();
    await expect(app.register(webPlugin, { webRoot: root }).ready()).rejects.toThrow(/outside \/assets/);
    await app.close();
  });
});
