// One Babel config for webpack (SPA), jest (both projects) and the server build.
module.exports = (api) => {
  const isWeb = api.caller((caller) => caller?.name === 'babel-loader');
  return {
    presets: [
      ['@babel/preset-env', isWeb ? { modules: false, bugfixes: true, targets: 'defaults and supports es6-module' } : { targets: { node: '20' } }],
      ['@babel/preset-react', { runtime: 'automatic' }],
      ['@babel/preset-typescript', { allowDeclareFields: true }],
    ],
  };
};
