/**
 * What the content finder reads in tags, roles, classes and ids: never content, page furniture,
 * layout, and the hints that weigh a container up or down (Readability's lists, extended).
 */

// Never content (or not text): removed before scoring.
export const DROP_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'audio',
  'video',
  'source',
  'track',
  'map',
  'area',
  'input',
  'button',
  'select',
  'option',
  'optgroup',
  'textarea',
  'datalist',
  'output',
  'progress',
  'meter',
  'label',
  'link',
  'meta',
  'head',
  'title',
  'base',
  'dialog',
  'nav',
  'aside',
  'menu',
  'math-field',
  'slot',
]);
export const DROP_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'menu',
  'menubar',
  'dialog',
  'alertdialog',
  'toolbar',
  'tooltip',
  'tablist',
]);
// Screen-reader-only and hidden utility classes: text a sighted reader never sees.
export const HIDDEN_CLASSES =
  /(?:^|\s)(?:sr-only|screen-reader-text|screen-reader-only|visually-hidden|visuallyhidden|a11y-hidden|hidden|is-hidden|d-none|u-hidden|hide|offscreen)(?:\s|$)/;

// Class/id tokens of furniture that never wraps the article: removed even when large.
export const FURNITURE = new Set([
  'cookie',
  'cookies',
  'consent',
  'gdpr',
  'ccpa',
  'cmp',
  'comment',
  'comments',
  'disqus',
  'respond',
  'replies',
  'newsletter',
  'subscribe',
  'subscription',
  'ad',
  'ads',
  'adv',
  'advert',
  'adverts',
  'advertisement',
  'advertising',
  'adsbygoogle',
  'adslot',
  'adunit',
  'dfp',
  'gpt',
  'sponsor',
  'sponsored',
  'promo',
  'promoted',
  'promotion',
  'share',
  'sharing',
  'sharebar',
  'social',
  'related',
  'recommended',
  'recommendations',
  'recirc',
  'popular',
  'trending',
  'mostread',
  'outbrain',
  'taboola',
  'popup',
  'modal',
  'overlay',
  'paywall',
  'signup',
  'login',
  'signin',
  'rss',
  'follow',
  'print',
]);
// Layout furniture: removed unless it wraps most of the page's text (e.g. "has-sidebar" wrappers).
export const LAYOUT = new Set([
  'nav',
  'navbar',
  'navigation',
  'menu',
  'menubar',
  'megamenu',
  'submenu',
  'subnav',
  'breadcrumb',
  'breadcrumbs',
  'sidebar',
  'sidebars',
  'footer',
  'banner',
  'widget',
  'widgets',
  'pagination',
  'pager',
  'toolbar',
  'skip',
  'skiplink',
  'tags',
  'tagcloud',
  'taglist',
  'masthead',
  'topbar',
  'utility',
  'toc',
  'crumbs',
]);
// Only furniture outside the article: inside it a "header" holds the headline and standfirst.
export const OUTSIDE_ONLY = new Set(['header', 'head', 'hdr', 'top']);
// Substrings for compound ids that CMSs glue together ("blockrelatedarticles", "CybotCookiebotDialog").
export const FURNITURE_SUBSTR =
  /cookie|consent|gdpr|advert|sponsor|newsletter|disqus|outbrain|taboola|adsbygoogle|comment|related|social|sharing|share(?:bar|tools|buttons|links|this)|author-?(?:box|bio|card)|about-the-author/;
export const LAYOUT_SUBSTR = /sidebar|breadcrumb|navbar|navigation|megamenu|footer/;
export const POSITIVE =
  /(?:^|[\s_-])(?:article|articlebody|content|entry|main|post|body|text|story|prose|markdown|blog|hentry|h-entry|e-content|page-content|post-content|richtext|mw-parser-output)(?:$|[\s_-])/;
// No "hidden" here (Readability has it): truly hidden elements are dropped by isHidden, while
// compound classes such as Shopify's "quick-add-hidden" or Bootstrap's "hidden-xs" mark visible content.
export const NEGATIVE_WEIGHT =
  /(?:^|[\s_-])(?:combx|comment|com-|contact|foot|footer|footnote-?link|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|tool|widget|nav|menu|ad|ads|cookie|banner|social|byline|author|date)(?:$|[\s_-])/;

export const BLOCKISH = new Set([
  'blockquote',
  'dl',
  'div',
  'img',
  'ol',
  'p',
  'pre',
  'table',
  'ul',
  'section',
  'article',
  'main',
  'header',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'li',
  'form',
  'fieldset',
  'details',
  'address',
]);
export const DIVLIKE = new Set([
  'div',
  'section',
  'article',
  'main',
  'span',
  'font',
  'center',
  'header',
  'dd',
  'li',
  'td',
  'details',
]);
export const SCORE_TAGS = new Set(['p', 'pre', 'td', 'h2', 'h3', 'h4', 'h5', 'h6', 'dd', 'blockquote']);
export const CONDITIONAL = new Set(['div', 'section', 'ul', 'ol', 'table', 'form', 'fieldset', 'header', 'dl']);
export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
export const BYLINE =
  /(?:^|[\s_-])(?:byline|author|authors|dateline|meta|metadata|postmeta|entrymeta|posted|published|pubdate|timestamp|date|time|readtime|reading|updated|credits?)(?:$|[\s_-])/;
export const AD_LABEL =
  /^(?:advertisement|advertising|ad|sponsored(?: content)?|anzeige|werbung|publicité|publicidad|pubblicità|reclame|story continues below(?: advertisement)?|article continues below(?: advertisement)?|continue reading below|scroll to continue(?: with content)?)$/i;
