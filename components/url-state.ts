"use client";

import { useQueryState } from "nuqs";
import { useCallback, useState } from "react";

/**
 * A selection kept in one search param (`?connection=…`, `?profile=…`) so a view can be shared
 * and survives reloads and Back. `initial` (what the page was rendered with, or a story's
 * argument) applies until the person selects or closes something; after that the URL decides.
 */
export function useSelectionParam(key: string, initial: string | null = null) {
  const [param, setParam] = useQueryState(key, { history: "push" });
  const [touched, setTouched] = useState(false);
  const value = touched ? param : (param ?? initial);
  const select = useCallback(
    (id: string | null) => {
      setTouched(true);
      void setParam(id);
    },
    [setParam],
  );
  return [value, select] as const;
}
