// Headless Debian Chromium driven by playwright-core (never downloads a browser); Playwright
// gives each launch a fresh temporary profile.
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Flags for every test browser: no sandbox or GPU in CI, no network of Chromium's own. */
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
