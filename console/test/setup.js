import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy* and waitFor wait for a condition; their bound (1 s by default) only decides how long a
// failing test takes to say so, and a loaded machine can take longer than 1 s to render
configure({ asyncUtilTimeout: 20_000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});
