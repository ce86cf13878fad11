/** Tailwind CSS 4 via PostCSS. Used by Next.js and by Storybook (Vite picks this file up). */
const config = {
  plugins: {
    "@tailwindcss/postcss": {},
  },
};

export default config;
