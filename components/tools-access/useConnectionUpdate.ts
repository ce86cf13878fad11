"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toolsApiPath } from "./api";
import { invalidateConnections, updateCachedConnection } from "./gateway";
import { useToolsApi } from "./ToolsApiProvider";
import type { Connection } from "./types";

/** `PATCH …/connections/:id`; on success the cached connection is replaced and lists refetched. */
export function useConnectionUpdate<Body>(companyId: string, connectionId: string, onSaved?: () => void) {
  const api = useToolsApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) =>
      api<Connection>(toolsApiPath(companyId, `/connections/${encodeURIComponent(connectionId)}`), {
        method: "PATCH",
        body,
      }),
    onSuccess: (next) => {
      updateCachedConnection(client, companyId, next);
      onSaved?.();
      return invalidateConnections(client, companyId);
    },
  });
}
