"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { buttonStyles } from "../ui/Button";
import { Card, CardBody } from "../ui/Card";
import { cn } from "../ui/cn";

export interface NotFoundPanelProps {
  /** Where the way back leads. */
  homeHref: string;
  homeLabel: string;
  /** A page of its own (centred on the screen) rather than inside the console's shell. */
  fullPage?: boolean;
}

/** The product's "page not found": what happened and a way back. */
export function NotFoundPanel({ homeHref, homeLabel, fullPage = false }: NotFoundPanelProps) {
  const card = (
    <Card className="w-full max-w-md" data-testid="not-found">
      <CardBody className="space-y-4 px-6 py-8">
        <p className="text-sm font-medium text-accent-700">404</p>
        <h1 className="text-xl font-semibold text-zinc-900">Page not found</h1>
        <p className="text-sm text-zinc-600">
          This page does not exist, or you do not have access to it. Check the address, or go back and find it
          from the navigation.
        </p>
        <Link href={homeHref} className={buttonStyles({ variant: "secondary" })} data-testid="not-found-home">
          {homeLabel}
        </Link>
      </CardBody>
    </Card>
  );
  if (!fullPage) return <div className="flex justify-center py-8 md:py-16">{card}</div>;
  return (
    <main className={cn("flex min-h-screen flex-col items-center justify-center gap-6 bg-zinc-50 px-4")}>
      <p className="text-lg font-semibold tracking-tight text-zinc-900">Paperclip</p>
      {card}
    </main>
  );
}

/**
 * A company page's 404 (an issue, agent or run that is not there): inside the shell, with the
 * way back to the company's issues. Not-found files get no params, so they are read here.
 */
export function CompanyNotFound() {
  const params = useParams<{ companyId?: string }>();
  const companyId = typeof params?.companyId === "string" ? params.companyId : null;
  return companyId ? (
    <NotFoundPanel
      homeHref={`/c/${encodeURIComponent(companyId)}/issues`}
      homeLabel="Back to the company's issues"
    />
  ) : (
    <NotFoundPanel homeHref="/" homeLabel="Go to Paperclip" />
  );
}
