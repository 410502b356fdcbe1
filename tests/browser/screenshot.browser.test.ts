/**
 * Screenshots rendered in Chromium, decoded and checked for size and
 * content; a screenshot with each message; the `take_screenshot` action's
 * result routed to look_at_screen by a real runtime.
 */
import {
  createHost,
  memoryJournal,
  screenshot,
  sseTransport,
  type TransportFactory,
} from "../../client/mod.ts";
import { equal, match, ok } from "./_assert.ts";
import { freshSession, runtimeUrls, sessionMessages } from "./_runtime.ts";

/** The RGB of one pixel of a decoded data URI image, and its size. */
async function decode(dataUri: string) {
  const bitmap = await createImageBitmap(await (await fetch(dataUri)).blob());
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext("2d")!;
  context.drawImage(bitmap, 0, 0);
  return {
    width: bitmap.width,
    height: bitmap.height,
    pixel: (x: number, y: number) => [...context.getImageData(x, y, 1, 1).data.slice(0, 3)],
  };
}

const near = (actual: number[], expected: number[], what: string) =>
  ok(
    actual.every((v, i) => Math.abs(v - expected[i]) <= 24),
    `${what}: expected about ${expected}, got ${actual}`,
  );

/** A 400x300 red panel with a 100x100 blue square at (50, 50). */
function panel(): HTMLElement {
  const element = document.createElement("div");
  element.style.cssText = "position:relative;width:400px;height:300px;background:rgb(220,20,20)";
  element.innerHTML =
    '<div style="position:absolute;left:50px;top:50px;width:100px;height:100px;background:rgb(20,20,220)"></div>';
  document.body.append(element);
  return element;
}

describe("screenshots", () => {
  afterEach(() => document.body.replaceChildren());

  it("renders an element to a PNG, downscaled to maxWidth, with its content", async () => {
    const shot = await screenshot({ element: panel(), maxWidth: 200 });
    equal(shot.kind, "image");
    equal(shot.purpose, "screenshot");
    match(shot.data_uri, /^data:image\/png;base64,/);
    const image = await decode(shot.data_uri!);
    equal(image.width, 200);
    equal(image.height, 150);
    near(image.pixel(190, 140), [220, 20, 20], "the panel's corner");
    near(image.pixel(50, 50), [20, 20, 220], "the blue square");
  });

  it("renders a JPEG when asked", async () => {
    const shot = await screenshot({ element: panel(), type: "jpeg", quality: 0.7 });
    match(shot.data_uri, /^data:image\/jpeg;base64,/);
    const image = await decode(shot.data_uri!);
    equal(image.width, 400);
    near(image.pixel(100, 100), [20, 20, 220], "the blue square");
    near(image.pixel(300, 250), [220, 20, 20], "the panel");
  });

  it("times a 1280x800 page", async () => {
    const page = document.createElement("main");
    page.style.cssText = "width:1280px;height:800px;font:14px sans-serif;overflow:hidden";
    page.innerHTML = `<h1>Issues</h1><table>${
      Array.from({ length: 40 }, (_, i) =>
        `<tr><td>#${i + 1}</td><td>Issue number ${i + 1}</td><td>open</td></tr>`).join("")
    }</table>`;
    document.body.append(page);
    await screenshot({ element: page }); // loads the library
    const start = performance.now();
    const shot = await screenshot({ element: page, maxWidth: 1280 });
    const ms = performance.now() - start;
    console.log(
      `SCREENSHOT_MS 1280x800 png: ${ms.toFixed(0)} ms, ${
        Math.round(shot.data_uri!.length / 1024)
      } KB data URI`,
    );
    equal((await decode(shot.data_uri!)).width, 1280);
  });

  it("with screenshots: each-message, every message carries a screenshot attachment", async () => {
    const { proxied } = await runtimeUrls();
    const bodies: Record<string, unknown>[] = [];
    const capturing: TransportFactory = (link) => {
      const inner = sseTransport()(link);
      return {
        connect: () => inner.connect(),
        send: (body) => (bodies.push(body), inner.send(body)),
        cancel: () => inner.cancel(),
        close: () => inner.close(),
      };
    };
    panel();
    const host = createHost({
      runtimeUrl: proxied,
      sessionId: freshSession("shots"),
      journal: memoryJournal(),
      autoConnect: false,
      transport: capturing,
      screenshots: "each-message",
      screenshotOptions: { maxWidth: 320 },
    });
    await host.send("hello");
    const [shot] = bodies[0].attachments as { purpose: string; data_uri: string }[];
    equal(shot.purpose, "screenshot");
    match(shot.data_uri, /^data:image\/png;base64,/);
    host.close();
  });

  it("with screenshots: on-request, the model's take_screenshot reaches look_at_screen, not the transcript", async () => {
    const { proxied } = await runtimeUrls();
    panel();
    const host = createHost({
      runtimeUrl: proxied,
      sessionId: freshSession("look"),
      journal: memoryJournal(),
      autoConnect: false,
      screenshots: "on-request",
      screenshotOptions: { maxWidth: 320 },
    });
    await host.send("take screenshot");
    const [, assistant] = await sessionMessages(proxied, host.sessionId);
    equal(assistant.tool_calls[0].tool_name, "take_screenshot");
    equal(assistant.tool_calls[0].status, "completed");
    ok(
      !JSON.stringify(assistant.tool_calls).includes("data:image"),
      "the image is not stored in the transcript",
    );
    host.close();
  });
});
