import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['__tests__/**/*.test.ts', 'service/__tests__/**/*.test.ts'],
    // Real SonarQube servers: `npm run test:real-server` (vitest.real-server.config.ts).
    exclude: ['**/node_modules/**', '__tests__/real-server/**'],
    environment: 'node',
    testTimeout: 20_000,
    // For the tests that run concurrently (the decoration's fault matrix): its runs mostly wait
    // on loopback servers, some for the decoration's whole allowance, side by side.
    maxConcurrency: 24,
    hookTimeout: 30_000
  }
})
