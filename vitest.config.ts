import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };

// Projects: fast unit tests (no I/O), component tests (happy-dom), integration tests against a real
// PostgreSQL and the MCP conformance suite.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: [
            "server/**/*.test.ts",
            "db/**/*.test.ts",
            "components/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        // Component tests (Testing Library) in a DOM: `components/**/*.test.tsx`.
        resolve: { alias },
        test: {
          name: "components",
          include: ["components/**/*.test.tsx"],
          exclude: ["node_modules/**"],
          environment: "happy-dom",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: ["node_modules/**", ".next/**"],
          environment: "node",
          globalSetup: ["db/test/global-setup.ts"],
          // next-auth imports `next/server` without an extension, which plain Node ESM cannot
          // resolve; inlined, vite resolves it (tests drive next-auth's real route handlers).
          server: { deps: { inline: ["next-auth"] } },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { AUTH_SECRET: "test-auth-secret-not-for-production-0123456789" },
        },
      },
      {
        // `npm run conformance` (scripts/conformance.ts): the official MCP server suite against
        // our fixture, directly and through the gateway, on a database of its own.
        resolve: { alias },
        test: {
          name: "conformance",
          include: ["scripts/**/*.suite.ts"],
          exclude: ["scripts/conformance-client.suite.ts"],
          environment: "node",
          globalSetup: ["db/test/global-setup.ts"],
          testTimeout: 600_000,
          hookTimeout: 120_000,
          env: { AUTH_SECRET: "test-auth-secret-not-for-production-0123456789" },
        },
      },
      {
        // `npm run conformance:client` (scripts/conformance-client.ts) without PAPERCLIP_URL: the
        // suite's client (OAuth) scenarios with the gateway as the client, on an instance of its own.
        resolve: { alias },
        test: {
          name: "conformance-client",
          include: ["scripts/conformance-client.suite.ts"],
          environment: "node",
          globalSetup: ["db/test/global-setup.ts"],
          testTimeout: 3_600_000,
          hookTimeout: 120_000,
          env: { AUTH_SECRET: "test-auth-secret-not-for-production-0123456789" },
        },
      },
    ],
  },
});
