import { careersTestConfig } from '../../packages/core/test/support/vitest.ts';

export default careersTestConfig({ testTimeout: 90_000, hookTimeout: 180_000 });
