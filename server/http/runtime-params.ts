import { z } from "zod";
import { CompanyParams } from "./params";
import { uuidParam } from "./route";

// Path parameters of the runtime routes. A malformed id answers 404.
export const StdioTemplateParams = CompanyParams.extend({ templateId: uuidParam });
export const RuntimeSlotParams = CompanyParams.extend({ slotId: uuidParam });
export const StdioCommandParams = z.object({ commandId: uuidParam });
