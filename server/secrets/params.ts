import { CompanyParams } from "../http/params";
import { uuidParam } from "../http/route";

// Path-parameter schemas of the secrets routes. A malformed id answers 404.
export const SecretParams = CompanyParams.extend({ secretId: uuidParam });
export const ConnectionParams = CompanyParams.extend({ connectionId: uuidParam });
export const SecretBindingParams = ConnectionParams.extend({ bindingId: uuidParam });
