import type { Decorator } from "@storybook/nextjs-vite";

/** Answers the components' same-origin API calls in stories: `status` and a JSON body per call. */
export function withFetch(
  answer: (path: string, init?: RequestInit) => { status: number; body: unknown },
): Decorator {
  return (Story) => {
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const { status, body } = answer(String(input), init);
      await new Promise((r) => setTimeout(r, 300));
      return Response.json(body, { status });
    }) as typeof fetch;
    return <Story />;
  };
}

export const failure = (code: string, message: string) => ({
  status: 500,
  body: { error: { code, message } },
});

/** Leaves every API call unanswered, for the loading state. */
export function withPendingFetch(): Decorator {
  return (Story) => {
    globalThis.fetch = (() => new Promise<Response>(() => {})) as typeof fetch;
    return <Story />;
  };
}
