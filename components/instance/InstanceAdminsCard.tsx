import { Card, CardHeader } from "../ui/Card";
import { RelativeTime } from "../ui/RelativeTime";

export interface InstanceAdminRow {
  userId: string;
  email: string;
  name: string | null;
  grantedAt: string;
}

/** Who operates this instance. Managed from the host with `npm run cli -- admin grant|revoke`. */
export function InstanceAdminsCard({ admins }: { admins: InstanceAdminRow[] }) {
  return (
    <Card data-testid="instance-admins">
      <CardHeader
        title="Instance administrators"
        description={
          <>
            The host's operators. Only they approve stdio commands and loopback or private upstreams for every
            company on this instance. A company owner is not one. Change them on the host with{" "}
            <code className="rounded bg-zinc-100 px-1">npm run cli -- admin grant|revoke &lt;email&gt;</code>.
          </>
        }
      />
      <ul className="divide-y divide-zinc-100">
        {admins.map((a) => (
          <li key={a.userId} className="flex flex-wrap items-center justify-between gap-2 px-5 py-3 text-sm">
            <span className="min-w-0 truncate font-medium text-zinc-900" title={a.email}>
              {a.name ? `${a.name} · ` : ""}
              {a.email}
            </span>
            <span className="text-zinc-500">
              since <RelativeTime value={a.grantedAt} />
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
