import path from 'node:path';
import zlib from 'node:zlib';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import webpack, { type Configuration } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import { privateScreenPaths } from './src/app/screen-loaders';
import { PRELOAD_MANIFEST, type PreloadManifest } from './src/domain/first-visit';

/**
 * Writes preload-manifest.json: for each private path, the files of the app's chunk and of that
 * path's screen (`screen-<name>`), and the DataGrid's for wide screens. The server lists them as
 * `<link rel="preload">` in that path's index.html, so a deep link or reload downloads them beside
 * the entry instead of one round trip after another (Lighthouse on a slow phone).
 */
class PreloadManifestPlugin {
  apply(compiler: webpack.Compiler) {
    compiler.hooks.thisCompilation.tap('PreloadManifestPlugin', (compilation) => {
      // At the report stage the files carry their final (real content) hashes.
      compilation.hooks.processAssets.tap({ name: 'PreloadManifestPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const files = (group: string) => {
          const chunkGroup = compilation.namedChunkGroups.get(group);
          if (!chunkGroup) throw new Error(`PreloadManifestPlugin: no chunk group named ${group}`);
          return chunkGroup.getFiles().filter((file) => file.endsWith('.js')).map((file) => `/${file}`);
        };
        const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
        const app = files('app');
        const manifest: PreloadManifest = {};
        for (const [routePath, screen] of privateScreenPaths()) {
          const scripts = [...new Set([...app, ...files(`screen-${kebab(screen)}`)])];
          manifest[routePath] = { scripts, wideScripts: files('paged-data-grid').filter((file) => !scripts.includes(file)) };
        }
        compilation.emitAsset(PRELOAD_MANIFEST, new webpack.sources.RawSource(JSON.stringify(manifest, null, 1)));
      });
    });
  }
}

const COMPRESSIBLE = /\.(js|css|svg|json|txt)$/;

function precompressedCopies() {
  return [
    new CompressionPlugin({ test: COMPRESSIBLE, algorithm: 'gzip', compressionOptions: { level: 9 }, filename: '[path][base].gz', threshold: 1024, minRatio: 0.9 }),
    new CompressionPlugin<zlib.BrotliOptions>({
      test: COMPRESSIBLE,
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
      filename: '[path][base].br',
      threshold: 1024,
      minRatio: 0.9,
    }),
  ];
}

/** The SPA: one entry, lazy routes split into chunks, built to dist/web and served by the API. */
export default (_env: unknown, argv: { mode?: Configuration['mode'] }): Configuration & { devServer?: DevServerConfiguration } => {
  const production = argv.mode === 'production';
  return {
    mode: production ? 'production' : 'development',
    // app-chunk first, as a module of its own: it requests the app's chunk before index.tsx's
    // imports (React, MUI) are evaluated, which webpack would otherwise hoist above it.
    entry: ['./src/app-chunk.ts', './src/index.tsx'],
    output: {
      path: path.resolve(__dirname, 'dist/web'),
      filename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      publicPath: '/',
      clean: true,
    },
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          use: { loader: 'babel-loader', options: { cacheDirectory: true } },
        },
        { test: /\.(png|svg|jpg|jpeg|gif|ico|woff2?)$/i, type: 'asset' },
      ],
    },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    plugins: [
      new HtmlWebpackPlugin({ template: './public/index.html', favicon: './public/favicon.svg' }),
      // The screens speak English only: keep moment's locale files (about 70 kB gzip) out.
      new webpack.IgnorePlugin({ resourceRegExp: /^\.\/locale$/, contextRegExp: /moment$/ }),
      // Brotli and gzip copies of every asset, served by Accept-Encoding (server/src/plugins/web.ts).
      // index.html is left out: the server changes it at start and it is small.
      ...(production ? precompressedCopies() : []),
      new PreloadManifestPlugin(),
    ],
    optimization: {
      splitChunks: { chunks: 'all' },
      runtimeChunk: 'single',
    },
    performance: { hints: false },
    devServer: {
      port: 8080,
      host: '127.0.0.1',
      historyApiFallback: true,
      hot: true,
      proxy: [{ context: ['/v1', '/docs', '/healthz'], target: 'http://127.0.0.1:3000' }],
    },
  };
};
