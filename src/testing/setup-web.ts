import '@testing-library/jest-dom';

globalThis.__DIALDESK_API_URL__ = process.env.DIALDESK_API_URL;
