import { handleExampleFixture } from "@/server/examples/fixture-endpoint";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ fixture: string }> };
const handle = async (request: Request, { params }: Ctx) =>
  handleExampleFixture(request, (await params).fixture);
export const POST = handle;
export const GET = handle;
export const DELETE = handle;
