"use client";

import { useId } from "react";
import type { Wire } from "@/server/contracts/api/common";
import type { WorkProduct } from "@/server/contracts/api/work";
import { WORK_PRODUCT_KINDS } from "@/server/contracts/values";
import { humanize } from "../format";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { Input } from "../ui/Input";
import { Label } from "../ui/Label";
import { Select } from "../ui/Select";
import { SubmitButton } from "../ui/SubmitButton";
import { type WorkAction, WorkActionForm } from "./WorkActionForm";

export type DeliverableItem = Pick<
  Wire<typeof WorkProduct>,
  "id" | "kind" | "title" | "reference" | "revision" | "viaClient" | "updatedAt"
>;

export interface DeliverablesCardProps {
  deliverables: DeliverableItem[];
  canEdit: boolean;
  /** Fields `kind`, `title`, `reference`. */
  registerAction: WorkAction;
}

/** A link is shown as a link only when it is https (the server accepts nothing else). */
function Reference({ item }: { item: DeliverableItem }) {
  if (item.kind === "link" && item.reference.startsWith("https://"))
    return (
      <a
        href={item.reference}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="break-all text-accent-700 hover:underline"
      >
        {item.reference}
      </a>
    );
  return <span className="font-mono text-xs break-all">{item.reference}</span>;
}

/** The deliverables (documents, attachments, links) and, for writers, a register form. */
export function DeliverablesCard({ deliverables, canEdit, registerAction }: DeliverablesCardProps) {
  const id = useId();
  return (
    <Card data-testid="deliverables-card">
      <CardHeader
        title="Deliverables"
        titleAs="h2"
        description="Documents, attachments and links registered as this issue's work products."
      />
      <CardBody className="space-y-4">
        {deliverables.length === 0 ? (
          <p className="text-sm text-zinc-500" data-testid="deliverables-empty">
            No deliverables yet.
          </p>
        ) : (
          <ul className="divide-y divide-zinc-100" data-testid="deliverable-list">
            {deliverables.map((item) => (
              <li
                key={item.id}
                className="flex flex-wrap items-baseline gap-2 py-2 text-sm"
                data-testid="deliverable"
              >
                <Badge>{humanize(item.kind)}</Badge>
                <span className="font-medium text-zinc-900">{item.title}</span>
                <Reference item={item} />
                <span className="text-xs text-zinc-500">
                  revision {item.revision}
                  {item.viaClient ? ` · via ${item.viaClient}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
        {canEdit ? (
          <WorkActionForm action={registerAction} testId="deliverable-register">
            <div className="grid gap-3 sm:grid-cols-3">
              <div className="space-y-1">
                <Label htmlFor={`${id}-kind`}>Kind</Label>
                <Select id={`${id}-kind`} name="kind" defaultValue="link">
                  {WORK_PRODUCT_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {humanize(k)}
                    </option>
                  ))}
                </Select>
              </div>
              <div className="space-y-1">
                <Label htmlFor={`${id}-title`} required>
                  Title
                </Label>
                <Input id={`${id}-title`} name="title" required maxLength={200} />
              </div>
              <div className="space-y-1">
                <Label htmlFor={`${id}-reference`} required>
                  Reference
                </Label>
                <Input
                  id={`${id}-reference`}
                  name="reference"
                  required
                  maxLength={2_000}
                  placeholder="https://… or a document key"
                />
              </div>
            </div>
            <SubmitButton variant="secondary" pendingLabel="Registering…" data-testid="deliverable-submit">
              Register deliverable
            </SubmitButton>
          </WorkActionForm>
        ) : null}
      </CardBody>
    </Card>
  );
}
