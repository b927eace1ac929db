import { careersTestConfig } from './test/support/vitest.ts';

export default careersTestConfig();
