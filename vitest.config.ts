import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['__tests__/**/*.test.ts', 'service/__tests__/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // For the tests that run concurrently (the decoration's fault matrix): its runs mostly wait
    // on loopback servers, some for the decoration's whole allowance, side by side.
    maxConcurrency: 24,
    hookTimeout: 30_000
  }
})
