/**
 * Play functions as a list of steps, so a story says what a person does ("type this name, pick
 * that type, press create") instead of repeating the testing-library calls. Each step finds its
 * element when it runs, as the calls written out one after another did.
 */
import { expect, userEvent, within } from "storybook/test";

type Canvas = ReturnType<typeof within>;
export type Step = (canvas: Canvas) => Promise<unknown>;

export const click =
  (testId: string): Step =>
  (canvas) =>
    userEvent.click(canvas.getByTestId(testId));

/** Clicks the first of several elements with the test id (the first row's button). */
export const clickFirst =
  (testId: string): Step =>
  (canvas) =>
    userEvent.click(canvas.getAllByTestId(testId)[0]!);

export const typeInto =
  (testId: string, text: string): Step =>
  (canvas) =>
    userEvent.type(canvas.getByTestId(testId), text);

export const clear =
  (testId: string): Step =>
  (canvas) =>
    userEvent.clear(canvas.getByTestId(testId));

export const choose =
  (testId: string, value: string): Step =>
  (canvas) =>
    userEvent.selectOptions(canvas.getByTestId(testId), value);

/** Waits until the text is shown. */
export const findText =
  (text: string | RegExp): Step =>
  (canvas) =>
    canvas.findByText(text);

/** Waits until an element with the test id is shown. */
export const findTestId =
  (testId: string): Step =>
  (canvas) =>
    canvas.findByTestId(testId);

/** Waits until an element with the test id is shown, and checks that it is visible. */
export const expectVisible =
  (testId: string): Step =>
  async (canvas) =>
    expect(await canvas.findByTestId(testId)).toBeVisible();

/** A story's `play`: the steps in order, inside the story's canvas. */
export function steps(...list: Step[]) {
  return async ({ canvasElement }: { canvasElement: HTMLElement }) => {
    const canvas = within(canvasElement);
    for (const step of list) await step(canvas);
  };
}
