import { fileTransferRoutes } from "@/server/http/file-transfer-routes";

export const dynamic = "force-dynamic";

/** Ten-minute upload (PUT) and download (GET) URLs of assistant connections (docs/public-mcp.md). */
export const PUT = fileTransferRoutes.PUT;
export const GET = fileTransferRoutes.GET;
export const OPTIONS = fileTransferRoutes.OPTIONS;
