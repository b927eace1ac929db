import { careersTestConfig } from '../../packages/core/test/support/vitest.ts';

// The started API logs every request; the page and the database are what the test checks.
export default careersTestConfig({ testTimeout: 90_000, logLevel: 'warn' });
