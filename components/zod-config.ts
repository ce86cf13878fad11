/**
 * Import first (a bare `import "../zod-config"`) in a client module that builds zod schemas:
 * zod 4 probes for `new Function` when it builds an object schema, and the console's CSP reports
 * that probe as a violation even though zod catches it. In the browser, zod runs without eval.
 */
import { z } from "zod";

if (typeof window !== "undefined") z.config({ jitless: true });
