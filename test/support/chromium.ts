/**
 * Debian's chromium (`apt-get install chromium`, never a downloaded browser), headless, driven by playwright-core:
 * the one place the page tests say where it is, how it is launched, and what happens when it is missing.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** The flags of every launch: headless, no sandbox (root in CI), no GPU, nothing fetched in the background. */
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];

/**
 * The `skip` option of a browser suite: false when chromium is there, the reason when it is not. Under CI
 * (`CI=true`) a missing chromium throws instead, at the test file's load: .ci/run installs it.
 */
export function chromiumSkip(): false | string {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI === 'true')
    throw new Error(`${CHROMIUM} is missing; CI requires it (.ci/run installs Debian's chromium)`);
  return `${CHROMIUM} is missing (apt-get install chromium)`;
}

/** Launch headless chromium with the common flags and `extraArgs`. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...LAUNCH_ARGS, ...extraArgs] });
}

/** Where the page tests' screenshots go: $WEB_ARTIFACTS_DIR (created), or a fresh temporary folder. */
export function webArtifactsDir(): string {
  const dir = process.env.WEB_ARTIFACTS_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'proofseal-web-artifacts-'));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Records on `problems` what no page of ours may show: a Content Security Policy refusal in its console (or a
 * console text matching `alsoInConsole`) and an uncaught script error.
 */
export function recordPageProblems(page: Page, problems: string[], alsoInConsole?: RegExp): void {
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text()) || alsoInConsole?.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
}
