// Opens headless Chromium with the Eden Test Wallet extension loaded (a persistent context: Chromium
// loads unpacked extensions only into a real profile) and returns the context, the wallet's service
// worker (the test's handle on the wallet) and a close() that removes the temporary profile.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS } from '../browser.mjs';

export const EXTENSION_DIR = dirname(fileURLToPath(import.meta.url));

/** `options` go to launchPersistentContext (e.g. viewport). */
export async function launchWithWallet(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'eden-wallet-profile-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      ...options,
      args: [
        `--disable-extensions-except=${EXTENSION_DIR}`, `--load-extension=${EXTENSION_DIR}`,
        ...CHROMIUM_ARGS,
      ],
    });
    const worker = context.serviceWorkers().find((w) => w.url().endsWith('/background.js'))
      ?? await context.waitForEvent('serviceworker', { predicate: (w) => w.url().endsWith('/background.js'), timeout: 15_000 });
    return {
      context,
      worker,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
}
