import { CompanyParams } from "./params";
import { uuidParam } from "./route";

// Path-parameter schemas of the secrets routes. A malformed id answers 404.
export const SecretParams = CompanyParams.extend({ secretId: uuidParam });
export const ConnectionParams = CompanyParams.extend({ connectionId: uuidParam });
export const SecretBindingParams = ConnectionParams.extend({ bindingId: uuidParam });
