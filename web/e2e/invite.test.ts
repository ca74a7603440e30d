import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/messages/en.js';
import { ja } from '../src/i18n/messages/ja.js';
import { zhHant } from '../src/i18n/messages/zh-Hant.js';
import { ensureWebBuilt, launchChromium, type RunningApi, resultsDir, sharedDir, startApi } from './harness.js';
import { untranslatedText } from './untranslated.js';

const ADMIN = 'root@example.com';
const INVITEE = 'editor@example.com';
const PASSWORD = 'a long enough password';
const INVITEE_PASSWORD = 'another long password';
const DOC = join(sharedDir, 'corpus/formats/md/docling__wiki.md');

let api: RunningApi;
let browser: Browser;
let admin: Page;
let link = '';

beforeAll(async () => {
  await ensureWebBuilt();
  api = await startApi({ PINPOINT_AUTH: 'on', PINPOINT_PARSE_ISOLATE: 'false' });
  browser = await launchChromium();
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.base });
  admin = await context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

describe('inviting a member by link (PINPOINT_AUTH=on, Chromium)', () => {
  it('the first admin sets up the instance and puts a document in the default collection', async () => {
    await admin.goto(`${api.base}/`);
    await admin.waitForSelector('h1#signin-heading');
    await admin.fill('input[type=email]', ADMIN);
    await admin.fill('input[type=password]', PASSWORD);
    await admin.click('button[type=submit]');
    await admin.waitForSelector('header nav a[href="#/members"]');
    await admin.setInputFiles('[data-testid=file-input]:not([disabled])', DOC);
    await admin.waitForSelector('[data-testid=file-row][data-state=ready]', { timeout: 120_000 });
  }, 180_000);

  it('invites an editor by email: the dialog says no e-mail is sent and shows the link once, with a copy button', async () => {
    await admin.goto(`${api.base}/#/members`);
    await admin.click(`button:has-text("${en['members.invite']}")`);
    const dialog = await admin.waitForSelector('dialog[open]');
    expect(await dialog.textContent()).toContain(en['invite.noMail']);
    await admin.fill('dialog input[type=email]', INVITEE);
    await admin.selectOption('dialog select', 'editor');
    await admin.screenshot({ path: join(resultsDir, 'invite-dialog.png') });
    await admin.click(`dialog button[type=submit]`);
    await admin.waitForSelector('[data-testid=invite-link]');
    link = await admin.inputValue('[data-testid=invite-link] input');
    expect(link).toMatch(new RegExp(`^${api.base}/invite/pp_inv_[0-9a-f]{20}_[A-Za-z0-9_-]{43}$`));
    expect(await admin.textContent('[data-testid=invite-link]')).toContain(`give it to ${INVITEE} yourself`);
    await admin.click(`[data-testid=invite-link] button:has-text("${en['invite.copy']}")`);
    await admin.waitForSelector(`text=${en['invite.copied']}`);
    expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await admin.screenshot({ path: join(resultsDir, 'invite-dialog-link.png') });
    await admin.click(`dialog button:has-text("${en['invite.close']}")`);
    const row = await admin.waitForSelector('[data-testid=invitation-row]');
    expect(await row.textContent()).toContain(INVITEE);
    expect(await row.textContent()).toContain(en['role.editor']);
    await admin.screenshot({ path: join(resultsDir, 'invite-pending.png'), fullPage: true });
  });

  it('the invitee opens the link in a fresh browser (Japanese), sets a password and lands signed in, in the collection', async () => {
    const context = await browser.newContext({ locale: 'ja-JP', viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    await page.goto(link);
    await page.waitForSelector('[data-testid=invite-offer]');
    expect(await page.textContent('h1#accept-heading')).toBe('default に参加');
    expect(await page.textContent('[data-testid=invite-offer]')).toBe(
      `${ADMIN} さんが ${INVITEE} を default に${ja['role.editor']}として招待しました。`,
    );
    expect(await untranslatedText(page, ja)).toEqual([]);
    await page.screenshot({ path: join(resultsDir, 'invite-accept-ja.png') });
    const [password, confirm] = await page.$$('input[type=password]');
    await password?.fill(INVITEE_PASSWORD);
    await confirm?.fill(`${INVITEE_PASSWORD}!`);
    await page.click('button[type=submit]');
    expect(await (await page.waitForSelector('[role=alert]')).textContent()).toBe(ja['accept.mismatch']);
    await confirm?.fill(INVITEE_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForSelector('header nav a[href="#/documents"]');
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.textContent('header')).toContain(INVITEE);
    expect(await page.isVisible('header nav a[href="#/members"]')).toBe(false);
    await page.goto(`${api.base}/#/documents`);
    await page.waitForSelector('[data-testid=document-row]:has-text("docling__wiki.md")');
    await page.screenshot({ path: join(resultsDir, 'invite-joined-ja.png') });
    await context.close();
  });

  it('the used link shows the localised invalid-invitation message; the admin sees a member, no pending invitation', async () => {
    for (const [locale, messages] of [
      ['zh-TW', zhHant],
      ['en-US', en],
    ] as const) {
      const context = await browser.newContext({ locale, viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      await page.goto(link);
      const invalid = await page.waitForSelector('[data-testid=invite-invalid]');
      expect(await invalid.textContent()).toBe(messages['error.PP_INVITATION_INVALID']);
      expect(await page.textContent('h1#accept-heading')).toBe(messages['accept.unusable']);
      await page.screenshot({ path: join(resultsDir, `invite-used-${locale}.png`) });
      await context.close();
    }
    // A fresh load: two hash changes in a row can be rendered as one, leaving the members list
    // the admin loaded before the invitation was accepted on screen.
    await admin.goto(`${api.base}/#/members`);
    await admin.reload();
    await admin.waitForSelector(`[data-testid=member-row]:has-text("${INVITEE}")`);
    expect(await admin.$$('[data-testid=invitation-row]')).toHaveLength(0);
    expect(await admin.textContent('body')).toContain(en['invite.none']);
  });
});
