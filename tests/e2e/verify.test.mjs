// End to end: the "Verify a Merkle proof" page, built by Trunk, in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { serveDist } from './serve.mjs';
import { launch } from './browser.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHOTS = join(ROOT, 'test-output', 'screenshots');
let server, browser, page;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await serveDist(join(ROOT, 'dist'));
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1000, height: 1100 } });
  const t0 = Date.now();
  await page.goto(server.url + 'verify');
  await page.waitForSelector('#verify');
  const sinceNavigation = await page.evaluate(() => Math.round(performance.now()));
  console.log(`# first render in ${Date.now() - t0} ms (goto → page rendered); ${sinceNavigation} ms after navigation start`);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('the example verifies and the page says so', async () => {
  await page.click('text=Load an example');
  await page.click('#verify');
  await page.waitForSelector('#result.ok');
  assert.match(await page.textContent('#result'), /Verified/);
  await page.screenshot({ path: join(SHOTS, 'verify-ok.png'), fullPage: true });
});

test('a changed leaf does not verify, and shows the root the proof leads to', async () => {
  const value = await page.inputValue('#value');
  await page.fill('#value', value.replace('524', '525'));
  await page.click('#verify');
  await page.waitForSelector('#result.bad');
  assert.match(await page.textContent('#result'), /Not verified/);
  await page.screenshot({ path: join(SHOTS, 'verify-bad.png'), fullPage: true });
});

test('malformed input is named in plain words', async () => {
  await page.fill('#root', '0x1234');
  await page.click('#verify');
  await page.waitForSelector('#result.error');
  const text = await page.textContent('#result');
  assert.match(text, /Merkle root/);
  assert.match(text, /64 hex digits/);
});

test('works on a narrow screen', async () => {
  await page.setViewportSize({ width: 380, height: 900 });
  await page.click('text=Load an example');
  await page.click('#verify');
  await page.waitForSelector('#result.ok');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  assert.equal(overflow, false, 'no horizontal scrolling at 380 px');
  await page.screenshot({ path: join(SHOTS, 'verify-mobile.png'), fullPage: true });
});
