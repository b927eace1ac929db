import { careersTestConfig } from '../core/test/support/vitest.ts';

// The started API logs every request; the answers are what the tests check.
export default careersTestConfig({ logLevel: 'warn' });
