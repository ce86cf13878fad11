import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { fn } from "storybook/test";
import { SkillsManager } from "@/components/config/SkillsManager";
import { COMPANY_ID } from "../sample-data";

const SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const skills = [
  {
    id: "skill-1",
    slug: "code-review",
    name: "Code review",
    description: "How we review pull requests",
    status: "active" as const,
    files: [
      { path: "SKILL.md", versioned: true, revision: 2, sha256: SHA },
      { path: "references/checklist.md", versioned: true, revision: 1, sha256: SHA },
    ],
  },
  {
    id: "skill-2",
    slug: "triage",
    name: "Triage",
    description: null,
    status: "archived" as const,
    files: [],
  },
];

const meta = {
  title: "Config/SkillsManager",
  component: SkillsManager,
  args: {
    skills,
    selected: {
      skillId: "skill-1",
      file: {
        path: "SKILL.md",
        versioned: true,
        revision: 2,
        sha256: SHA,
        body: "# Code review\n\nRead the diff first.",
      },
    },
    canManage: true,
    pageHref: `/c/${COMPANY_ID}/settings/skills`,
    action: fn(async () => ({})),
  },
} satisfies Meta<typeof SkillsManager>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Admin: Story = {};
export const ReadOnly: Story = { args: { canManage: false } };
export const Empty: Story = { args: { skills: [], selected: null } };
