import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { persistStore } from 'redux-persist';
import { App } from './app/app';
import { appRoutes } from './app/routes';
import { setupStore } from './app/store';

const store = setupStore();
const persistor = persistStore(store);
const router = createBrowserRouter(appRoutes);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App store={store} persistor={persistor} router={router} />
  </StrictMode>,
);
