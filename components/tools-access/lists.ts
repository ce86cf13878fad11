/**
 * The company lists the manager screens show, each seeded by the server render and refetched
 * through `useCompanyList`. No React here.
 */
import { toolsAccessKeys, toolsList } from "./api";
import type {
  ApplicationsResponse,
  ExamplesResponse,
  PoliciesResponse,
  ProfilesResponse,
  SecretsResponse,
} from "./types";

export const applicationsList = toolsList(
  toolsAccessKeys.applications,
  "/applications",
  (r: ApplicationsResponse) => r.applications,
);
export const examplesList = toolsList(
  toolsAccessKeys.examples,
  "/examples",
  (r: ExamplesResponse) => r.examples,
);
export const policiesList = toolsList(
  toolsAccessKeys.policies,
  "/policies",
  (r: PoliciesResponse) => r.policies,
);
export const profilesList = toolsList(
  toolsAccessKeys.profiles,
  "/profiles",
  (r: ProfilesResponse) => r.profiles,
);
export const secretsList = toolsList(toolsAccessKeys.secrets, "/secrets", (r: SecretsResponse) => r.secrets);
