import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['__tests__/**/*.test.ts', 'service/__tests__/**/*.test.ts'],
    // Real SonarQube servers: `npm run test:real-server` (vitest.real-server.config.ts).
    exclude: ['**/node_modules/**', '__tests__/real-server/**'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000
  }
})
