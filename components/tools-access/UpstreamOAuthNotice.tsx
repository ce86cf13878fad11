import type { ReactNode } from "react";
import { Alert } from "../ui/Alert";
import type { UpstreamOAuthReturn } from "./types";
import { upstreamOAuthErrorText } from "./upstream-auth";

export interface UpstreamOAuthNoticeProps {
  /** The callback's outcome; nothing renders without one. */
  notice: UpstreamOAuthReturn;
  connected: { title: string; body: ReactNode };
  errorTitle: string;
  /** `<prefix>-notice-connected` / `<prefix>-notice-error`. */
  testIdPrefix: string;
}

/** What came back from the authorization server: success, or the error code and what it means. */
export function UpstreamOAuthNotice({
  notice,
  connected,
  errorTitle,
  testIdPrefix,
}: UpstreamOAuthNoticeProps) {
  if (notice?.status === "connected")
    return (
      <Alert tone="success" title={connected.title} data-testid={`${testIdPrefix}-notice-connected`}>
        {connected.body}
      </Alert>
    );
  if (notice?.status === "error")
    return (
      <Alert tone="danger" title={errorTitle} code={notice.code} data-testid={`${testIdPrefix}-notice-error`}>
        {upstreamOAuthErrorText(notice.code)}
      </Alert>
    );
  return null;
}
