// async-exit-hook ships no types; only what db/embedded.ts uses is declared.
declare module "async-exit-hook" {
  interface AsyncExitHook {
    (hook: (done?: () => void) => void): void;
    unhookEvent(event: string): void;
    hookEvent(event: string, code?: number | null, filter?: (...args: unknown[]) => boolean): void;
    hookedEvents(): string[];
  }
  const exitHook: AsyncExitHook;
  export default exitHook;
}
