/**
 * The static 404 page of spec §2: in production the web app sends the browser here for an address it does not know,
 * and the portal serves it without the app (no bundle to load for a dead link). Both languages are in the page;
 * its small script (a file of its own: the CSP allows no inline script) shows the user's language only and wires
 * "Go back". Without script both languages show and "Back home" and "Back to login" still work (links).
 */
export const STATIC_404_PATH = '/404.html';
export const STATIC_404_SCRIPT_PATH = '/404.js';

const TEXTS = {
  'zh-CN': {
    title: '页面不存在',
    site: '高性能计算中心门户',
    text: '您访问的页面不存在',
    login: '返回登录',
    back: '返回上一页',
    home: '回到首页',
  },
  'en-US': {
    title: 'Page not found',
    site: 'HPC Centre Portal',
    text: 'The page you visited does not exist',
    login: 'Back to login',
    back: 'Go back',
    home: 'Back home',
  },
} as const;

const block = (lang: keyof typeof TEXTS) => {
  const t = TEXTS[lang];
  return `<section lang="${lang}" data-lang="${lang}">
      <p class="site">${t.site}</p>
      <h1>404</h1>
      <p>${t.text}</p>
      <p><a href="/login">${t.login}</a></p>
      <p class="actions">
        <button type="button" data-back hidden>${t.back}</button>
        <a role="button" class="primary" href="/main-page">${t.home}</a>
      </p>
    </section>`;
};

export const STATIC_404_HTML = `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="robots" content="noindex" />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <title>404 · ${TEXTS['zh-CN'].title} / ${TEXTS['en-US'].title}</title>
    <style>
      body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
        font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Microsoft YaHei', sans-serif;
        background: #f3f5fb; color: rgba(0, 0, 0, 0.88); }
      main { display: flex; gap: 48px; flex-wrap: wrap; justify-content: center; padding: 24px; }
      section { text-align: center; min-width: 280px; }
      h1 { font-size: 72px; margin: 8px 0; color: #4c6ae9; }
      .site { color: rgba(0, 0, 0, 0.65); margin: 0; }
      a { color: #3b57d4; }
      .actions { display: flex; gap: 8px; justify-content: center; margin-top: 24px; }
      .actions a, .actions button { font: inherit; font-size: 14px; padding: 5px 16px; border-radius: 6px;
        border: 1px solid #d9d9d9; background: #fff; color: rgba(0, 0, 0, 0.88); cursor: pointer;
        text-decoration: none; }
      .actions .primary { background: #3b57d4; border-color: #3b57d4; color: #fff; }
    </style>
  </head>
  <body>
    <main>
    ${block('zh-CN')}
    ${block('en-US')}
    </main>
    <script src="${STATIC_404_SCRIPT_PATH}"></script>
  </body>
</html>
`;

/** Shows the language the web app remembers (Chinese by default) and wires "Go back" when there is a page to go to. */
export const STATIC_404_SCRIPT = `(function () {
  var lang = 'zh-CN';
  try { if (localStorage.getItem('hpc.language') === 'en-US') lang = 'en-US'; } catch (e) {}
  document.documentElement.lang = lang;
  document.querySelectorAll('[data-lang]').forEach(function (s) { s.hidden = s.getAttribute('data-lang') !== lang; });
  document.querySelectorAll('[data-back]').forEach(function (b) {
    b.hidden = history.length < 2;
    b.addEventListener('click', function () { history.back(); });
  });
})();
`;
