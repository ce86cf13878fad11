import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { SmokeAllPanel } from "@/components/tools-access/SmokeAllPanel";
import type { SmokeAllResult } from "@/components/tools-access/types";
import { COMPANY_ID } from "./fixtures";
import { examples } from "./gateway-fixtures";
import { withGatewayApi } from "./gateway-mock-api";

const NAMES = [
  "allowed read appears in transcript and audit",
  "unauthorized tool is hidden and a direct call returns 403",
  "approval-gated write creates a pending action card and does not execute upstream",
  "approved action executes the stored reviewed arguments once",
  "retry does not duplicate side effects",
  "missing secret fails closed with a value-free audit",
  "changed or new write tool is quarantined until review",
  "malicious result is sanitized or blocked",
  "local stdio lazy-starts, reuses a slot, idles down and records health",
  "remote HTTP fixture works without a local process",
  "cross-company access is rejected at discovery, execution, audit and secret resolution",
  "large output is bounded",
  "rate limit returns a clear denial and an audit event",
];

const result = (failing: number[] = []): SmokeAllResult => ({
  passed: failing.length === 0,
  durationMs: 11_471,
  checks: NAMES.map((name, i) => ({
    id: `check-${i}`,
    name,
    passed: !failing.includes(i),
    evidence: { invocationId: `5b0c8e0e-0000-4000-8000-00000000000${i % 10}`, auditEventId: "41" },
    durationMs: 20 + i * 13,
    error: failing.includes(i) ? "the check's guarantee did not hold (see the evidence)" : null,
    ranAt: "2026-12-03T07:30:00.000Z",
  })),
});

const meta = {
  title: "Tools & Access/Smoke all",
  component: SmokeAllPanel,
  args: { companyId: COMPANY_ID, canRun: true },
  decorators: [withGatewayApi({ examples })],
} satisfies Meta<typeof SmokeAllPanel>;

export default meta;
type Story = StoryObj<typeof meta>;

export const NotRunYet: Story = {};

export const AllPassed: Story = { args: { initialResult: result() } };

export const TwoFailed: Story = { args: { initialResult: result([5, 12]) } };
