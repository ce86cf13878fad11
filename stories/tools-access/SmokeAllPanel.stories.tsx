import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { SmokeAllPanel } from "@/components/tools-access/SmokeAllPanel";
import { COMPANY_ID } from "./fixtures";
import { examples } from "./gateway-fixtures";
import { withGatewayApi } from "./gateway-mock-api";
import { smokeResult as result } from "./smoke-fixtures";

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
