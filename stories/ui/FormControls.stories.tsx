import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { Field, Input, Label, Select, Textarea } from "@/components/ui";

const meta = {
  title: "UI/Form controls",
  parameters: { layout: "padded" },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

export const Controls: Story = {
  render: () => (
    <div className="max-w-md space-y-5">
      <div className="space-y-1.5">
        <Label htmlFor="fc-name" required>
          Application name
        </Label>
        <Input id="fc-name" placeholder="GitHub" required />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="fc-notes">Notes</Label>
        <Textarea id="fc-notes" placeholder="What is this application used for?" />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="fc-risk">Risk level</Label>
        <Select id="fc-risk" defaultValue="medium">
          <option value="low">Low</option>
          <option value="medium">Medium</option>
          <option value="high">High</option>
        </Select>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="fc-disabled">Disabled</Label>
        <Input id="fc-disabled" defaultValue="Read only value" disabled />
      </div>
    </div>
  ),
};

export const Fields: Story = {
  render: () => (
    <div className="max-w-md space-y-5">
      <Field id="f-base-url" label="Base URL" hint="The HTTPS endpoint of the MCP server." required>
        {(control) => <Input type="url" placeholder="https://mcp.example.com" {...control} />}
      </Field>
      <Field id="f-token" label="Access token" error="The token was rejected by GitHub (401 Unauthorized).">
        {(control) => <Input type="password" defaultValue="ghp_expired" {...control} />}
      </Field>
      <Field id="f-scope" label="Scope" hint="Which repositories this connection may touch.">
        {(control) => (
          <Select {...control} defaultValue="selected">
            <option value="all">All repositories</option>
            <option value="selected">Selected repositories</option>
          </Select>
        )}
      </Field>
      <Field id="f-reason" label="Reason" error="A reason is required for high-risk actions." required>
        {(control) => <Textarea rows={3} {...control} />}
      </Field>
    </div>
  ),
};
