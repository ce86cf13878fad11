import type { StorybookConfig } from "@storybook/nextjs-vite";

const config: StorybookConfig = {
  stories: ["../stories/**/*.stories.tsx"],
  addons: [],
  // Storybook-only static files: MSW's service worker (`npx msw init .storybook/public --save=false`),
  // which answers the stories' API calls. Kept out of the app's public/ so it never ships.
  staticDirs: ["./public"],
  framework: {
    name: "@storybook/nextjs-vite",
    options: {},
  },
  core: {
    disableTelemetry: true,
    disableWhatsNewNotifications: true,
  },
  // Tailwind runs through postcss.config.mjs, which Vite picks up on its own.
  async viteFinal(viteConfig) {
    const build = viteConfig.build ?? {};
    const rolldownOptions = build.rolldownOptions ?? {};
    const previousOnwarn = rolldownOptions.onwarn;
    return {
      ...viteConfig,
      build: {
        ...build,
        // A single preview bundle is fine for a static Storybook.
        chunkSizeWarningLimit: 4096,
        rolldownOptions: {
          ...rolldownOptions,
          onwarn(warning, defaultHandler) {
            // "use client" is meaningless in the Storybook bundle; silence the per-file notice.
            if (warning.code === "MODULE_LEVEL_DIRECTIVE") return;
            if (previousOnwarn) previousOnwarn(warning, defaultHandler);
            else defaultHandler(warning);
          },
        },
      },
    };
  },
};

export default config;
