import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { Badge, Card, CardBody, KeyValueList } from "@/components/ui";

const meta = {
  title: "UI/KeyValueList",
  component: KeyValueList,
  args: {
    items: [
      { label: "Application", value: "GitHub" },
      { label: "Status", value: <Badge tone="success">Connected</Badge> },
      { label: "Owner", value: "dana@acme-robotics.example" },
      { label: "Expires", value: null },
    ],
  },
} satisfies Meta<typeof KeyValueList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const InCard: Story = {
  render: (args) => (
    <Card className="max-w-lg">
      <CardBody className="py-2">
        <KeyValueList {...args} />
      </CardBody>
    </Card>
  ),
};
