import type { Decorator } from "@storybook/nextjs-vite";

/**
 * Renders the story inside a `<div>` of one width class, as the component sits on its page.
 * Pass the full Tailwind class (e.g. "max-w-xl") so Tailwind's scanner sees it.
 */
export function inWidth(className: string): Decorator {
  return (Story) => (
    <div className={className}>
      <Story />
    </div>
  );
}
