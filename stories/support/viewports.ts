/**
 * Storybook viewports for the narrow layout (#21 deliverable 6). The shell and the stacked
 * tables switch on a media query (Tailwind `max-md:`, below 768 px), so a story has to narrow the
 * preview frame itself; a fixed-width wrapper would not trigger it.
 */
export const NARROW_VIEWPORTS = {
  phone390: { name: "Phone (390 px)", styles: { width: "390px", height: "844px" }, type: "mobile" },
  desktop1440: { name: "Desktop (1440 px)", styles: { width: "1440px", height: "900px" }, type: "desktop" },
} as const;

/** Spread into a story: `{ ...atPhoneWidth, args: … }`. */
export const atPhoneWidth = {
  parameters: { viewport: { options: NARROW_VIEWPORTS } },
  globals: { viewport: { value: "phone390", isRotated: false } },
};
