/**
 * The company lists the manager screens show, each seeded by the server render and refetched
 * through `useCompanyList`. No React here.
 */
import { toolsList } from "./api";
import type {
  ApplicationsResponse,
  ExamplesResponse,
  PoliciesResponse,
  ProfilesResponse,
  SecretsResponse,
} from "./types";

export const applicationsList = toolsList("applications", (r: ApplicationsResponse) => r.applications);
export const examplesList = toolsList("examples", (r: ExamplesResponse) => r.examples);
export const policiesList = toolsList("policies", (r: PoliciesResponse) => r.policies);
export const profilesList = toolsList("profiles", (r: ProfilesResponse) => r.profiles);
export const secretsList = toolsList("secrets", (r: SecretsResponse) => r.secrets);
