import type { Db } from "@/db/client";
import { systemContext } from "../context";
import { isServiceError } from "../errors";
import { addPrivateUpstream } from "../instance/private-upstreams";

/** Tests: the operator lists the origins of these loopback fixture URLs (as the CLI would, as system). */
export async function grantPrivateUpstreams(db: Db, urls: string[]): Promise<void> {
  const ctx = systemContext(db, "test");
  for (const url of urls) {
    try {
      await addPrivateUpstream(ctx, { origin: new URL(url).origin, note: "test fixture" });
    } catch (err) {
      if (!(isServiceError(err) && err.code === "private_upstream_exists")) throw err;
    }
  }
}
