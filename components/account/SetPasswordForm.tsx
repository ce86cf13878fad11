"use client";

import { useEffect, useState } from "react";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";
import { Card, CardBody } from "../ui/Card";
import { NEW_PASSWORD_LABEL, PasswordInputs } from "./PasswordInputs";

/**
 * Redeems a one-time set-password link. The token travels in the URL fragment
 * (`/set-password#token=…`), which browsers never send to a server or in a Referer; the form
 * posts it to `POST /api/auth/set-password` and then sends the person to sign in.
 */
export function SetPasswordForm() {
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    const t = new URLSearchParams(window.location.hash.slice(1)).get("token");
    setToken(t);
    // Out of the address bar (and history) as soon as it has been read.
    if (t) window.history.replaceState(null, "", window.location.pathname);
  }, []);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    if (password !== String(form.get("confirm") ?? "")) {
      setError("The two passwords differ.");
      return;
    }
    setPending(true);
    setError(null);
    const res = await fetch("/api/auth/set-password", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, password }),
    }).catch(() => null);
    setPending(false);
    if (!res) return setError("The server could not be reached. Try again.");
    const json = (await res.json().catch(() => ({}))) as {
      email?: string;
      error?: { code: string; message: string; details?: { issues?: { message: string }[] } };
    };
    if (!res.ok) {
      const detail = json.error?.details?.issues?.[0]?.message;
      return setError(
        json.error?.code === "password_link_invalid"
          ? "This link is unknown, already used or expired. Ask an owner of your company for a new one."
          : `The password was not accepted${detail ? `: ${detail}` : "."}`,
      );
    }
    window.location.assign(`/signin?email=${encodeURIComponent(json.email ?? "")}&password_set=1`);
  }

  return (
    <Card className="w-full max-w-sm">
      <CardBody className="space-y-6 px-6 py-8">
        <h1 className="text-xl font-semibold tracking-tight text-zinc-900">Set your password</h1>
        {error ? (
          <Alert tone="danger" data-testid="set-password-error">
            {error}
          </Alert>
        ) : null}
        {token === null ? (
          <p className="text-sm text-zinc-600">Open the link you were given to set your password.</p>
        ) : null}
        <form onSubmit={submit} className="space-y-4" data-testid="set-password-form">
          <PasswordInputs
            inputs={[
              {
                label: NEW_PASSWORD_LABEL,
                id: "new-password",
                name: "password",
                testId: "set-password-password",
              },
              { label: "Repeat it", id: "confirm-password", name: "confirm", testId: "set-password-confirm" },
            ]}
          />
          <Button
            type="submit"
            className="w-full"
            disabled={pending || !token}
            data-testid="set-password-submit"
          >
            {pending ? "Saving…" : "Set password"}
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
