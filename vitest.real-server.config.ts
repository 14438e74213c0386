import { defineConfig } from 'vitest/config'

// The real-server suite (`npm run test:real-server`): real SonarQube servers started by
// __tests__/real-server/support/setup.ts, real scanners, the built action and command.
export default defineConfig({
  test: {
    include: ['__tests__/real-server/**/*.test.ts'],
    globalSetup: ['__tests__/real-server/support/setup.ts'],
    environment: 'node',
    testTimeout: 10 * 60_000,
    // Two builds and analyses of the Java sample took over 15 min on a loaded two-core machine.
    hookTimeout: 40 * 60_000,
    fileParallelism: false
  }
})
