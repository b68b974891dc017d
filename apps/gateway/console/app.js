import { h, mount } from '/console/dom.js';
import { showAuthError } from '/console/errors.js';
import { getKey, hasKey, onKeyChange, setKey } from '/console/key.js';
import * as crawl from '/console/pages/crawl.js';
import * as deep from '/console/pages/deep.js';
import * as groups from '/console/pages/groups.js';
import * as runs from '/console/pages/runs.js';
import * as search from '/console/pages/search.js';
import * as task from '/console/pages/task.js';
import * as usage from '/console/pages/usage.js';

/**
 * Hash routes: #/search (default), #/deep, #/deep/<id>, #/runs, #/runs/<kind>/<id>, #/task, #/crawl,
 * #/crawl/<id>, #/groups, #/groups/<id>, #/usage.
 * `loads` says whether the page reads the API as soon as it opens (then it waits for a key, and
 * opens again when one is saved); forms keep what was typed when a key is saved.
 */
const ROUTES = {
  search: { page: search, loads: () => false },
  deep: { page: deep, loads: (params) => Boolean(params[0]) },
  runs: { page: runs, loads: () => true },
  task: { page: task, loads: () => false },
  crawl: { page: crawl, loads: (params) => Boolean(params[0]) },
  groups: { page: groups, loads: () => true },
  usage: { page: usage, loads: () => true },
};

const pageRoot = document.getElementById('page');
let current = null; // {name, params, controller}

function parseHash() {
  const hash = location.hash;
  if (!hash.startsWith('#/')) return null;
  const [name, ...params] = hash
    .slice(2)
    .split('?')[0]
    .split('/')
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
  return ROUTES[name] ? { name, params } : { name: 'search', params: [] };
}

function render(route) {
  current?.controller.abort();
  const controller = new AbortController();
  current = { ...route, controller };
  const { page, loads } = ROUTES[route.name];
  for (const link of document.querySelectorAll('nav a[data-route]')) {
    if (link.dataset.route === route.name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${page.title} · Web Research console`;
  if (loads(route.params) && !hasKey()) {
    mount(pageRoot, h('h1', {}, page.title), h('p', { class: 'muted' }, 'Save an API key above to see this page.'));
    return;
  }
  pageRoot.replaceChildren();
  page.render(pageRoot, { params: route.params, signal: controller.signal });
}

function onHashChange() {
  // Hashes that are not routes (a citation's #source-N) leave the page as it is.
  const route = parseHash();
  if (route) {
    render(route);
    window.scrollTo(0, 0);
  }
}

function setupKey() {
  const form = document.getElementById('key-form');
  const input = document.getElementById('api-key');
  const forget = document.getElementById('forget-key');
  const status = document.getElementById('key-status-slot');
  const hint = document.getElementById('key-hint');
  const show = () => {
    const saved = hasKey();
    hint.hidden = saved;
    forget.hidden = !saved;
    // The key itself is never shown again: only that one is saved.
    input.placeholder = saved ? '•••••••• (saved)' : 'wr_…';
    mount(status, saved ? h('span', { class: 'ok', 'data-testid': 'key-status' }, 'Key saved for this tab') : null);
  };
  const store = () => {
    const value = input.value.trim();
    input.value = '';
    if (!value) return;
    setKey(value);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    store();
  });
  forget.addEventListener('click', () => setKey(''));
  onKeyChange(() => {
    showAuthError('');
    show();
    if (current && ROUTES[current.name].loads(current.params)) render(current);
  });
  show();
}

setupKey();
window.addEventListener('hashchange', onHashChange);
render(parseHash() ?? { name: 'search', params: [] });
if (getKey() === '') document.getElementById('api-key').focus();
