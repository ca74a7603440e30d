import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuilt, launchChromium, type RunningApi, resultsDir, startApi } from './harness.js';

let api: RunningApi;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  await ensureWebBuilt();
  api = await startApi({ PINPOINT_AUTH: 'on' });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
});

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

describe('sign-in, tokens and members in the SPA (PINPOINT_AUTH=on, Chromium)', () => {
  it('sets up the first admin on a fresh instance, then shows the admin navigation', async () => {
    await page.goto(`${api.base}/`);
    await page.waitForSelector('h1#signin-heading');
    expect(await page.textContent('h1#signin-heading')).toBe('Set up Pinpoint');
    await page.screenshot({ path: join(resultsDir, 'auth-setup.png') });
    await page.fill('input[type=email]', 'root@example.com');
    await page.fill('input[type=password]', 'a long enough password');
    await page.click('button[type=submit]');
    await page.waitForSelector('nav[aria-label=Main] >> text=Jobs');
    expect(await page.textContent('header')).toContain('root@example.com');
    // Members shows once the collections (and the admin's role in them) have loaded, after the session.
    await page.waitForSelector('nav >> text=Members');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'pp_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('creates a token shown once, and revokes it', async () => {
    await page.goto(`${api.base}/#/tokens`);
    await page.waitForSelector('h1#tokens-heading');
    await page.fill('input[maxlength="100"]', 'laptop script');
    await page.click('text=Create token');
    await page.waitForSelector('[data-testid=new-token]');
    const token = (await page.textContent('[data-testid=new-token] code')) ?? '';
    expect(token).toMatch(/^pp_tok_/);
    const res = await fetch(`${api.base}/api/collections`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    await page.screenshot({ path: join(resultsDir, 'auth-tokens.png') });
    await page.click('[data-testid=token-row] >> text=Revoke');
    await page.waitForSelector('[data-testid=token-row] >> text=revoked');
    expect((await fetch(`${api.base}/api/collections`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('lists the admin as a member of the default collection; signing out returns to the sign-in form', async () => {
    await page.goto(`${api.base}/#/members`);
    await page.waitForSelector('h1#members-heading');
    await page.screenshot({ path: join(resultsDir, 'auth-members.png') });
    await page.click('text=Sign out');
    await page.waitForSelector('h1#signin-heading');
    expect(await page.textContent('h1#signin-heading')).toBe('Sign in');
    expect((await fetch(`${api.base}/api/collections`)).status).toBe(401);
  });
});
