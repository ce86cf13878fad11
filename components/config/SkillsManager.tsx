"use client";

import Link from "next/link";
import type { SkillStatus } from "@/server/contracts/config-values";
import { humanize } from "../format";
import { Badge } from "../ui/Badge";
import { Card, CardBody, CardHeader } from "../ui/Card";
import { cn, focusRing } from "../ui/cn";
import { codeInput, DescriptionField, InputField, NameField } from "../ui/FieldControls";
import { ListTable } from "../ui/ListTable";
import { SubmitButton } from "../ui/SubmitButton";
import { TD, TR } from "../ui/Table";
import { ActionFormCard, type ConfigAction, FormNotice, useConfigForm } from "./form-state";
import { FileEditor, type FileHeadView, type FileView, NewFileForm, RevisionBadge } from "./RevisionedFile";

export interface SkillRow {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  status: SkillStatus;
  files: FileHeadView[];
}

export interface SkillsManagerProps {
  skills: SkillRow[];
  /** The skill chosen with `?skill=`, and its file chosen with `&file=` (with its body). */
  selected: { skillId: string; file: FileView | null } | null;
  /** Admins create and edit skills (`agents:manage`); members read them. */
  canManage: boolean;
  /** This page's address (selection goes in its query string). */
  pageHref: string;
  action: ConfigAction;
}

const skillHref = (pageHref: string, skillId: string, path?: string) =>
  `${pageHref}?skill=${encodeURIComponent(skillId)}${path ? `&file=${encodeURIComponent(path)}` : ""}`;

const linkClass = cn("rounded hover:text-accent-700 hover:underline", focusRing);

/** Company Settings › Skills: the organization's skills, their revisioned files, and (for admins) edits. */
export function SkillsManager({ skills, selected, canManage, pageHref, action }: SkillsManagerProps) {
  const [state, formAction] = useConfigForm(action);
  const chosen = selected ? skills.find((s) => s.id === selected.skillId) : undefined;
  return (
    <div className="space-y-6">
      <FormNotice state={state} testId="skills" />
      {canManage ? (
        <ActionFormCard
          title="New skill"
          description="A named set of Markdown files (start with SKILL.md)."
          formAction={formAction}
          intent="create-skill"
          testId="skill-add"
          submitLabel="Create skill"
          pendingLabel="Creating…"
        >
          <div className="flex flex-wrap gap-3">
            <InputField
              id="skill-slug"
              label="Slug"
              name="slug"
              required
              placeholder="code-review"
              hint="Lowercase letters, digits and -"
              fieldClassName="w-56"
              {...codeInput}
              data-testid="skill-add-slug"
            />
            <NameField
              idPrefix="skill"
              name="name"
              fieldClassName="min-w-56 flex-1"
              data-testid="skill-add-name"
            />
          </div>
          <DescriptionField idPrefix="skill" name="description" data-testid="skill-add-description" />
        </ActionFormCard>
      ) : null}
      <Card>
        <CardHeader title="Skills" description={`${skills.length} in this organization`} />
        <ListTable
          items={skills}
          columns={["Skill", "Status", "Files", ...(canManage ? [""] : [])]}
          testId="skills-table"
          empty={{
            title: "No skills yet",
            description: canManage
              ? "Create one above; agents and assistants can then read its files."
              : "An admin can add the organization's skills here.",
            "data-testid": "skills-empty",
          }}
        >
          {(skill) => (
            <TR key={skill.id} data-testid={`skill-row-${skill.slug}`}>
              <TD>
                <Link
                  href={skillHref(pageHref, skill.id)}
                  className={cn("font-medium text-zinc-900", linkClass)}
                >
                  {skill.name}
                </Link>
                <div className="font-mono text-xs text-zinc-500">{skill.slug}</div>
              </TD>
              <TD>
                <Badge tone={skill.status === "active" ? "success" : "neutral"}>
                  {humanize(skill.status)}
                </Badge>
              </TD>
              <TD>
                {skill.files.length === 0 ? (
                  <span className="text-zinc-500">none</span>
                ) : (
                  <ul className="space-y-1">
                    {skill.files.map((f) => (
                      <li key={f.path} className="flex items-center gap-2">
                        <Link
                          href={skillHref(pageHref, skill.id, f.path)}
                          className={cn("font-mono text-xs", linkClass)}
                        >
                          {f.path}
                        </Link>
                        <RevisionBadge file={f} />
                      </li>
                    ))}
                  </ul>
                )}
              </TD>
              {canManage ? (
                <TD className="text-right">
                  <form action={formAction}>
                    <input type="hidden" name="intent" value="status" />
                    <input type="hidden" name="skillId" value={skill.id} />
                    <input
                      type="hidden"
                      name="status"
                      value={skill.status === "active" ? "archived" : "active"}
                    />
                    <SubmitButton variant="secondary" size="sm" data-testid={`skill-status-${skill.slug}`}>
                      {skill.status === "active" ? "Archive" : "Restore"}
                    </SubmitButton>
                  </form>
                </TD>
              ) : null}
            </TR>
          )}
        </ListTable>
      </Card>
      {chosen ? (
        <Card data-testid="skill-files">
          <CardHeader title={chosen.name} description={chosen.description ?? undefined} />
          <CardBody className="space-y-4">
            {selected?.file ? (
              <FileEditor
                file={selected.file}
                canEdit={canManage}
                formAction={formAction}
                hidden={{ skillId: chosen.id }}
                testId="skill-file"
              />
            ) : null}
            {canManage ? (
              <NewFileForm
                formAction={formAction}
                hidden={{ skillId: chosen.id }}
                defaultPath={chosen.files.some((f) => f.path === "SKILL.md") ? "" : "SKILL.md"}
                testId="skill-file"
              />
            ) : null}
          </CardBody>
        </Card>
      ) : null}
    </div>
  );
}
