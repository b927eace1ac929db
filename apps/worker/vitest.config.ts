import { careersTestConfig } from '../../packages/core/test/support/vitest.ts';

export default careersTestConfig();
