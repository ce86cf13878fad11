import type { Meta, StoryObj } from "@storybook/nextjs-vite";
import { Button, Card, CardBody, CardFooter, CardHeader } from "@/components/ui";

const meta = {
  title: "UI/Card",
  component: Card,
} satisfies Meta<typeof Card>;

export default meta;
type Story = StoryObj<typeof meta>;

export const WithHeaderAndFooter: Story = {
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

export const BodyOnly: Story = {
  render: () => (
    <Card className="max-w-xl">
      <CardBody>
        <p className="text-sm text-zinc-700">A plain card with only a body.</p>
      </CardBody>
    </Card>
  ),
};
