"use client";

import { useRouter } from "next/navigation";
import { useActionState, useEffect, useState, useTransition } from "react";
import { Alert } from "../ui/Alert";
import { Badge } from "../ui/Badge";
import { Button } from "../ui/Button";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { Input } from "../ui/Input";
import { Label } from "../ui/Label";
import { RelativeTime } from "../ui/RelativeTime";
import { SecretOnce } from "../ui/SecretOnce";
import { Select } from "../ui/Select";
import { SubmitButton } from "../ui/SubmitButton";
import { Table, TBody, TD, TH, THead, TR } from "../ui/Table";
import { MEMBER_ROLES, type MemberRow } from "./types";

/** What a member action returns: an error message, a notice, or a one-time link to hand over. */
export interface MemberActionState {
  error?: string | null;
  notice?: string | null;
  link?: { email: string; url: string; expiresAt: string } | null;
}

export interface MembersManagerProps {
  members: MemberRow[];
  /** Owners manage members; everyone else sees the list. */
  canManage: boolean;
  currentUserId: string;
  /** One server action for every change; the form's `intent` field says which. */
  action: (state: MemberActionState, formData: FormData) => Promise<MemberActionState>;
}

const ROLE_HELP: Record<string, string> = {
  owner: "everything, including members",
  admin: "everything but members",
  member: "work, runs and reviewing tool calls",
  viewer: "read only",
};

/** Company Settings › Members: the people of the company, their roles, and (for owners) changes. */
export function MembersManager({ members, canManage, currentUserId, action }: MembersManagerProps) {
  const [state, formAction] = useActionState(action, {} as MemberActionState);
  const router = useRouter();
  // Re-read the list after every change (the action's own revalidation did not always reach
  // the open page), so the table shows what the server now holds.
  useEffect(() => {
    if (state.notice || state.error) router.refresh();
  }, [state, router]);
  return (
    <div className="space-y-6">
      {state.error ? (
        <Alert tone="danger" data-testid="members-error">
          {state.error}
        </Alert>
      ) : null}
      {state.notice ? (
        <Alert tone="success" data-testid="members-notice">
          {state.notice}
        </Alert>
      ) : null}
      {state.link ? (
        <SecretOnce
          label={`One-time set-password link for ${state.link.email}`}
          value={state.link.url}
          description="Give it to them yourself (Paperclip sends no email). It works once and expires in 3 days."
          data-testid="member-link"
        />
      ) : null}
      {canManage ? (
        <Card>
          <CardHeader
            title="Add a member"
            description="A new email gets an account and a one-time link to set its password."
          />
          <CardBody>
            <form
              action={formAction}
              className="flex flex-wrap items-end gap-3"
              data-testid="member-add-form"
            >
              <input type="hidden" name="intent" value="add" />
              <div className="min-w-56 flex-1 space-y-1.5">
                <Label htmlFor="member-email">Email</Label>
                <Input id="member-email" name="email" type="email" required data-testid="member-add-email" />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="member-role">Role</Label>
                <Select id="member-role" name="role" defaultValue="member" data-testid="member-add-role">
                  {MEMBER_ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r} — {ROLE_HELP[r]}
                    </option>
                  ))}
                </Select>
              </div>
              <SubmitButton pendingLabel="Adding…" data-testid="member-add-submit">
                Add member
              </SubmitButton>
            </form>
          </CardBody>
        </Card>
      ) : null}
      <Card>
        <CardHeader
          title="Members"
          description={members.length === 1 ? "1 person" : `${members.length} people`}
        />
        <Table stacked data-testid="members-table">
          <THead>
            <TR>
              <TH>Person</TH>
              <TH>Role</TH>
              <TH>Joined</TH>
              {canManage ? <TH className="text-right">Actions</TH> : null}
            </TR>
          </THead>
          <TBody>
            {members.map((m) => (
              <TR key={m.userId} data-testid={`member-row-${m.email}`}>
                <TD data-label="Person">
                  <div className="font-medium text-zinc-900">{m.name ?? m.email}</div>
                  {m.name ? <div className="text-zinc-500">{m.email}</div> : null}
                  <div className="mt-1 flex gap-1">
                    {m.userId === currentUserId ? <Badge tone="info">you</Badge> : null}
                    {!m.passwordSet ? <Badge tone="warning">password not set</Badge> : null}
                    {m.disabled ? <Badge tone="danger">disabled</Badge> : null}
                  </div>
                </TD>
                <TD data-label="Role">
                  {canManage ? (
                    <RoleForm member={m} state={state} action={formAction} />
                  ) : (
                    <span data-testid={`member-role-text-${m.email}`}>{m.role}</span>
                  )}
                </TD>
                <TD data-label="Joined">
                  <RelativeTime value={m.joinedAt} />
                </TD>
                {canManage ? (
                  <TD className="text-right">
                    <form action={formAction}>
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="userId" value={m.userId} />
                      <SubmitButton variant="danger" size="sm" data-testid={`member-remove-${m.email}`}>
                        Remove
                      </SubmitButton>
                    </form>
                  </TD>
                ) : null}
              </TR>
            ))}
          </TBody>
        </Table>
      </Card>
    </div>
  );
}

/**
 * A member's role picker. Controlled, and put back to the stored role after every action
 * result (a refused change must not leave it showing a role the person does not have). It
 * submits through a transition rather than `<form action>`: React resets such a form after
 * its action, which put the picker's DOM back to the role it was first rendered with.
 */
function RoleForm({
  member,
  state,
  action,
}: {
  member: MemberRow;
  state: MemberActionState;
  action: (formData: FormData) => void;
}) {
  const [role, setRole] = useState<string>(member.role);
  const [pending, startTransition] = useTransition();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `state` changes once per action result
  useEffect(() => setRole(member.role), [member.role, state]);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        startTransition(() => action(data));
      }}
      className="flex items-center gap-2"
    >
      <input type="hidden" name="intent" value="role" />
      <input type="hidden" name="userId" value={member.userId} />
      <Select
        name="role"
        value={role}
        onChange={(e) => setRole(e.target.value)}
        aria-label={`Role of ${member.email}`}
        data-testid={`member-role-${member.email}`}
      >
        {MEMBER_ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </Select>
      <Button
        type="submit"
        variant="secondary"
        size="sm"
        disabled={pending}
        data-testid={`member-role-save-${member.email}`}
      >
        {pending ? "Saving…" : "Save"}
      </Button>
    </form>
  );
}
