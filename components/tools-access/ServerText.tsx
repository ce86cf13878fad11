import { Fragment } from "react";

/** Renders `code` spans for the backtick-quoted parts of a server message. */
export function ServerText({ text }: { text: string }) {
  const parts = text.split("`");
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string never reorder
          <code key={index} className="rounded bg-black/5 px-1 font-mono text-[0.85em]">
            {part}
          </code>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string never reorder
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
