// The timeline webview as a UI check reaches it.
import { waitFor } from './debugView.mjs';

/**
 * The timeline webview's inner frame (VS Code nests it: iframe.webview → #active-frame).
 * @param {import('playwright-core').Page} page
 */
export async function timelineFrame(page) {
  return waitFor('the timeline webview', async () => {
    for (const frame of page.frames()) {
      try {
        if (await frame.locator('#event-count').count()) return frame;
      } catch {
        // frames come and go while the webview loads
      }
    }
    return undefined;
  });
}
