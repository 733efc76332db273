// The floor of a list route: a bare page with DataGrid, RTK Query, the router and notistack.
import { configureStore } from '@reduxjs/toolkit';
import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { DataGrid } from '@mui/x-data-grid';
import { SnackbarProvider } from 'notistack';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter, Route, Routes } from 'react-router-dom';

const api = createApi({
  baseQuery: fetchBaseQuery({ baseUrl: '/' }),
  endpoints: (build) => ({ rows: build.query<{ id: number }[], void>({ query: () => 'rows' }) }),
});
const store = configureStore({
  reducer: { [api.reducerPath]: api.reducer },
  middleware: (getDefault) => getDefault().concat(api.middleware),
});

function Page() {
  const { data = [] } = api.useRowsQuery();
  return <DataGrid rows={data} columns={[{ field: 'id' }]} />;
}

createRoot(document.getElementById('root')!).render(
  <Provider store={store}>
    <SnackbarProvider>
      <BrowserRouter>
        <Routes>
          <Route path="*" element={<Page />} />
        </Routes>
      </BrowserRouter>
    </SnackbarProvider>
  </Provider>,
);
