/** Dependency-free: whether the in-app example fixture servers exist on this instance. */
export const examplesEnabled = () => process.env.PAPERCLIP_EXAMPLES !== "off";

/** Where the in-app example fixtures are served (`/api/examples/mcp/<fixture>`). */
export const EXAMPLES_MCP_PATH_PREFIX = "/api/examples/mcp/";

/** The readable prefix of an example credential (`pcex_` + 256 random bits, base64url). */
export const EXAMPLE_CREDENTIAL_PREFIX = "pcex_";
