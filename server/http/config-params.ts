import { z } from "zod";
import { FilePath } from "../core/revisioned";
import { AgentParams, CompanyParams } from "./params";
import { uuidParam } from "./route";

// Path parameters of the configuration routes (docs/agents.md). A catch-all file path arrives
// as segments; an invalid path names nothing (404, as a malformed id does).
const PathSegments = z
  .array(z.string())
  .transform((s) => s.join("/"))
  .pipe(FilePath);

export const AgentFileParams = AgentParams.extend({ path: PathSegments });
export const SkillParams = CompanyParams.extend({ skillId: uuidParam });
export const SkillFileParams = SkillParams.extend({ path: PathSegments });
export const CompanyProjectParams = CompanyParams.extend({ projectId: uuidParam });
export const ProjectParams = z.object({ projectId: uuidParam });
