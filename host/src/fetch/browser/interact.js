// Distill's interact harness (docs/BROWSER.md): connects playwright-core over
// CDP to the server's Chromium, finds the session's page by its DevTools target
// id, and runs the user's code (read from stdin) as the body of an async
// function given `page`, `context` and `browser`. A single expression is its
// own result; otherwise `return` gives it. The result is printed after the
// marker line so the server can tell it from the code's own output.
'use strict';
const { chromium } = require(process.env.DISTILL_PLAYWRIGHT);
const marker = process.env.DISTILL_RESULT_MARKER;

function describe(value) {
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json;
  } catch (e) {
    return String(value);
  }
}

async function findPage(browser, targetId) {
  for (const context of browser.contexts()) {
    for (const page of context.pages()) {
      let session = null;
      try {
        session = await context.newCDPSession(page);
        const { targetInfo } = await session.send('Target.getTargetInfo');
        if (targetInfo.targetId === targetId) return page;
      } catch (e) {
        // Another request's page (or the pool's spare page) closed while we
        // looked: not the session's page, which the pool keeps open.
      } finally {
        if (session) await session.detach().catch(() => {});
      }
    }
  }
  return null;
}

function compile(code) {
  const AsyncFunction = (async () => {}).constructor;
  try {
    // A lone expression (`await page.title()`) is its own result.
    const expression = code.trim().replace(/;+$/, '');
    return new AsyncFunction('page', 'context', 'browser', `return (${expression}\n);`);
  } catch (e) {
    return new AsyncFunction('page', 'context', 'browser', code);
  }
}

(async () => {
  const code = require('fs').readFileSync(0, 'utf8');
  const fn = compile(code);
  const browser = await chromium.connectOverCDP(process.env.DISTILL_CDP_URL);
  const page = await findPage(browser, process.env.DISTILL_TARGET_ID);
  if (!page) throw new Error('the session page is gone');
  const value = await fn(page, page.context(), browser);
  process.stdout.write(`\n${marker}${JSON.stringify(describe(value))}\n`, () => process.exit(0));
})().catch((e) => {
  process.stderr.write(`${(e && e.stack) || e}\n`, () => process.exit(1));
});
