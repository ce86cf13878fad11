/**
 * The `components/ui` primitives, one story each state. One file (issue 15): the primitives
 * shared one meta shape per file; here every story renders its primitive itself.
 */
import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import {
  Alert,
  Badge,
  Button,
  buttonStyles,
  Card,
  CardBody,
  CardFooter,
  CardHeader,
  CodeBlock,
  EmptyState,
  Field,
  Input,
  KeyValueList,
  Label,
  PageHeader,
  PendingButton,
  SecretOnce,
  SectionNav,
  Select,
  Skeleton,
  Spinner,
  Table,
  TableSkeleton,
  TBody,
  TD,
  Textarea,
  TH,
  THead,
  TR,
} from "@/components/ui";

const meta = { title: "UI/Primitives" } satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

// Alert

export const AlertInfo: Story = {
  render: () => (
    <Alert tone="info" title="Heads up">
      Connections are encrypted at rest.
    </Alert>
  ),
};

const retry = (
  <a href="#retry" className={buttonStyles({ variant: "secondary", size: "sm" })}>
    Retry
  </a>
);

export const AlertErrorWithCode: Story = {
  render: () => (
    <Alert tone="danger" title="Could not load issues" code="DB_UNAVAILABLE" actions={retry}>
      The database did not respond. Try again in a moment.
    </Alert>
  ),
};

export const AlertAllTones: Story = {
  render: () => (
    <div className="max-w-2xl space-y-3">
      <Alert tone="info" title="Info">
        The gateway is not enabled for this company yet.
      </Alert>
      <Alert tone="success" title="Saved">
        Policy updated.
      </Alert>
      <Alert tone="warning" title="Rate limit close">
        Triage Bot used 90% of its hourly GitHub budget.
      </Alert>
      <Alert tone="danger" title="Call denied" code="POLICY_DENIED">
        github.delete_repo is not allowed for any profile.
      </Alert>
      <Alert tone="danger" code="UNAUTHENTICATED">
        An alert with only a code and a message.
      </Alert>
    </div>
  ),
};

// Badge

export const BadgePlayground: Story = {
  render: () => <Badge tone="neutral">Active</Badge>,
};

export const BadgeTones: Story = {
  render: () => (
    <div className="flex flex-wrap gap-2">
      <Badge tone="neutral">Queued</Badge>
      <Badge tone="success">Succeeded</Badge>
      <Badge tone="warning">Pending approval</Badge>
      <Badge tone="danger">Failed</Badge>
      <Badge tone="info">Running</Badge>
      <Badge tone="success" dot>
        With dot
      </Badge>
    </div>
  ),
};

// Button

export const ButtonPrimary: Story = { render: () => <Button variant="primary">Save changes</Button> };
export const ButtonSecondary: Story = { render: () => <Button variant="secondary">Cancel</Button> };
export const ButtonDanger: Story = { render: () => <Button variant="danger">Revoke connection</Button> };
export const ButtonGhost: Story = { render: () => <Button variant="ghost">Dismiss</Button> };
export const ButtonDisabled: Story = { render: () => <Button disabled>Save changes</Button> };

export const ButtonAllVariants: Story = {
  render: () => (
    <div className="space-y-4">
      {(["sm", "md", "lg"] as const).map((size) => (
        <div key={size} className="flex flex-wrap items-center gap-3">
          <Button size={size}>Primary</Button>
          <Button size={size} variant="secondary">
            Secondary
          </Button>
          <Button size={size} variant="danger">
            Danger
          </Button>
          <Button size={size} variant="ghost">
            Ghost
          </Button>
          <Button size={size} disabled>
            Disabled
          </Button>
        </div>
      ))}
      <a href="#docs" className={buttonStyles({ variant: "secondary" })}>
        A link styled as a button
      </a>
    </div>
  ),
};

/** `PendingButton`: disabled and `aria-busy` while its action runs, with the pending label instead of the text. */
export const ButtonPending: Story = {
  render: () => (
    <div className="flex flex-wrap items-center gap-3">
      <PendingButton pending={false} pendingLabel="Saving…">
        Save changes
      </PendingButton>
      <PendingButton pending pendingLabel="Saving…">
        Save changes
      </PendingButton>
      <PendingButton variant="ghost" size="sm" pending pendingLabel="Removing…">
        Remove
      </PendingButton>
    </div>
  ),
};

// Card

export const CardWithHeaderAndFooter: Story = {
  render: () => (
    <Card className="max-w-xl">
      <CardHeader
        title="GitHub"
        description="Code hosting for acme/gripper-firmware and acme/web."
        actions={
          <Button size="sm" variant="secondary">
            Edit
          </Button>
        }
      />
      <CardBody>
        <p className="text-sm text-zinc-700">
          Agents reach GitHub through the gateway using the company connection.
        </p>
      </CardBody>
      <CardFooter>
        <Button variant="ghost">Cancel</Button>
        <Button>Save</Button>
      </CardFooter>
    </Card>
  ),
};

export const CardBodyOnly: Story = {
  render: () => (
    <Card className="max-w-xl">
      <CardBody>
        <p className="text-sm text-zinc-700">A plain card with only a body.</p>
      </CardBody>
    </Card>
  ),
};

// CodeBlock

const curl = 'curl -H "Authorization: Bearer $PAPERCLIP_AGENT_KEY" \\\n  http://localhost:3000/api/mcp';
const mcpJson = {
  mcpServers: { paperclip: { url: "http://localhost:3000/api/mcp", transport: "streamable-http" } },
};

export const CodeBlockShell: Story = { render: () => <CodeBlock language="bash" code={curl} /> };

export const CodeBlockJsonWithTitle: Story = {
  render: () => <CodeBlock title="mcp.json" language="json" code={JSON.stringify(mcpJson, null, 2)} />,
};

export const CodeBlockNotCopyable: Story = {
  render: () => <CodeBlock copyable={false} code="npm run dev" />,
};

// EmptyState

const noProjects = {
  title: "No projects yet",
  description: "Projects group related issues so agents and people can find them together.",
};
const createProject = (
  <a href="#new" className={buttonStyles()}>
    Create project
  </a>
);

export const EmptyStateDefault: Story = { render: () => <EmptyState {...noProjects} /> };

export const EmptyStateWithAction: Story = {
  render: () => <EmptyState {...noProjects} action={createProject} />,
};

// Form controls

export const FormControls: Story = {
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

export const FormFields: Story = {
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

// KeyValueList

export const KeyValueListInCard: Story = {
  render: () => (
    <Card className="max-w-lg">
      <CardBody className="py-2">
        <KeyValueList
          items={[
            { label: "Application", value: "GitHub" },
            { label: "Status", value: <Badge tone="success">Connected</Badge> },
            { label: "Owner", value: "dana@acme-robotics.example" },
            { label: "Expires", value: null },
          ]}
        />
      </CardBody>
    </Card>
  ),
};

// PageHeader

export const PageHeaderDefault: Story = {
  render: () => <PageHeader title="Agents" description="The AI agents working for Acme Robotics." />,
};

export const PageHeaderWithActionsAndEyebrow: Story = {
  render: () => (
    <PageHeader
      eyebrow="Company Settings"
      title="Tools & Access"
      description="Decide which tools your agents may use, with which credentials, under which rules."
      actions={
        <>
          <Button variant="secondary">Export</Button>
          <Button>Add application</Button>
        </>
      }
    />
  ),
};

// SecretOnce

const agentKey = {
  label: "Agent API key for Triage Bot",
  value: "pcp_live_9f2c7e41b8a04d6e93c1f05a7b2d8e60",
};

export const SecretOnceDefault: Story = { render: () => <SecretOnce {...agentKey} /> };

export const SecretOnceWithDescription: Story = {
  render: () => (
    <SecretOnce {...agentKey} description="If you lose it, revoke this key and create a new one." />
  ),
};

// SectionNav

const agentSections = [
  { key: "overview", label: "Overview", href: "#overview" },
  { key: "runs", label: "Runs", href: "#runs" },
  { key: "settings", label: "Settings", href: "#settings" },
];

export const SectionNavDefault: Story = {
  render: () => <SectionNav aria-label="Agent sections" activeKey="runs" items={agentSections} />,
};

export const SectionNavNothingActive: Story = {
  render: () => <SectionNav aria-label="Agent sections" activeKey={null} items={agentSections} />,
};

// Skeleton and Spinner

export const SkeletonBlocks: Story = {
  render: () => (
    <Card className="max-w-md">
      <CardBody className="space-y-3">
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="w-full" />
        <Skeleton className="w-5/6" />
        <Skeleton className="w-2/3" />
      </CardBody>
    </Card>
  ),
};

export const SkeletonTablePlaceholder: Story = { render: () => <TableSkeleton rows={5} columns={5} /> };

export const SkeletonSpinners: Story = {
  render: () => (
    <div className="flex items-center gap-4">
      <Spinner size="sm" />
      <Spinner size="md" />
      <Spinner size="lg" label="Loading runs" />
    </div>
  ),
};

export const SpinnerDefault: Story = { render: () => <Spinner size="md" label="Loading" /> };

// Table

export const TableBasic: Story = {
  render: () => (
    <Table>
      <THead>
        <TR>
          {["Application", "Actions", "Status"].map((heading) => (
            <TH key={heading}>{heading}</TH>
          ))}
        </TR>
      </THead>
      <TBody>
        <TR>
          <TD className="font-medium text-zinc-900">GitHub</TD>
          <TD>14</TD>
          <TD>
            <Badge tone="success">Connected</Badge>
          </TD>
        </TR>
        <TR>
          <TD className="font-medium text-zinc-900">Linear</TD>
          <TD>9</TD>
          <TD>
            <Badge tone="warning">Needs credentials</Badge>
          </TD>
        </TR>
      </TBody>
    </Table>
  ),
};

export const TableLoading: Story = { render: () => <TableSkeleton rows={4} columns={3} /> };
