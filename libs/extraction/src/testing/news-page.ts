/**
 * A news article page as CMSs emit it, for the extractDocument specs: the article between a
 * header, a cookie banner, a sidebar, ads and a footer, with the URL it is served at.
 */
export const URL_ = 'https://news.example.com/local/2024/03/15/harbour-bridge-reopens';

/** A page as news CMSs emit it: the article between a header, a cookie banner, a sidebar, ads and a footer. */
export function newsPage(opts: { head?: string; article?: string; htmlAttrs?: string } = {}): string {
  return `<!DOCTYPE html>
<html ${opts.htmlAttrs ?? 'lang="en-GB"'}>
<head>
<meta charset="utf-8">
<title>Harbour bridge reopens after two-year repair | The Example Gazette</title>
<meta property="og:site_name" content="The Example Gazette">
${opts.head ?? ''}
<style>.ad{min-height:250px}</style>
<script>window.dataLayer=[{"page":"article"}];</script>
</head>
<body class="single-post">
<a class="skip-link screen-reader-text" href="#main">Skip to content</a>
<header class="site-header"><a href="/" class="logo">The Example Gazette</a>
<nav class="main-nav"><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/business">Business</a></li><li><a href="/opinion">Opinion</a></li></ul></nav></header>
<div id="cookie-consent" class="cookie-banner"><p>We use cookies to personalise content and ads. By clicking accept you agree to our use of cookies.</p><button>Accept all</button></div>
<div class="page-wrap has-sidebar">
<main id="main">
<article class="post">
<h1 class="entry-title">Harbour bridge reopens after two-year repair</h1>
<div class="entry-meta byline">By <a rel="author" href="/staff/jane">Jane Doe</a> · <time datetime="2024-03-15T08:00:00+01:00">15 March 2024</time></div>
<div class="share-buttons"><a href="https://facebook.com/sharer">Share on Facebook</a> <a href="https://twitter.com/intent">Share on Twitter</a></div>
<div class="entry-content">
${
  opts.article ??
  `<p>The Harbour Bridge reopened to traffic on Friday morning, two years after engineers closed it because of corroded steel cables, and nine months later than first promised.</p>
<p>About 40,000 vehicles a day used the bridge before the closure, and the diversion through the city centre added up to forty minutes to some journeys, according to the council.</p>
<div class="ad-slot" id="div-gpt-ad-1"><span class="ad-label">Advertisement</span></div>
<p>"It has been a long wait, and I want to thank residents for their patience," said the council leader, Ahmed Khan, who cut the ribbon with two of the engineers.</p>
<p>The repair cost £38 million, well above the original estimate of £24 million, after inspections found more damage inside the deck than expected.</p>`
}
</div>
<div class="related-posts"><h3>Related stories</h3><ul><li><a href="/local/ferry-fares">Ferry fares to rise in April</a></li><li><a href="/local/roadworks">Roadworks planned for the ring road</a></li></ul></div>
<div id="comments" class="comments-area"><h3>Leave a comment</h3><form id="commentform"><textarea name="comment"></textarea><input type="submit" value="Post Comment"></form></div>
</article>
</main>
<aside class="sidebar"><section class="widget most-read"><h3>Most read</h3><ol><li><a href="/a">Schools to close early for the holidays, council confirms</a></li><li><a href="/b">New cycle lanes planned for the seafront promenade</a></li></ol></section>
<section class="widget newsletter"><h3>Newsletter</h3><p>Get the morning briefing delivered to your inbox every weekday, free of charge.</p></section></aside>
</div>
<footer class="site-footer"><p>© 2024 Example Gazette Media Ltd. All rights reserved. Registered in England.</p><ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/terms">Terms</a></li></ul></footer>
</body>
</html>`;
}
