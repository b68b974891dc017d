import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '../support/fixture-web';
import { ReplayServer } from '../support/replay-server';
import { bearer, type RunningService, startService } from '../support/service-process';
import { searxngEnv } from '../support/slow-searxng';
import { json } from './harness';

jest.setTimeout(120_000);

/**
 * Companies' own sites, each on its own host, found by their pages as search returns them: titles
 * the way companies write them ("About <Company>", "Welcome to <Company> | Home", "<Company> –
 * Home"), each page naming its chief executive in its own words, and a regional directory that
 * lists them (linking to their home pages, not to the page search found). Five robotics companies
 * in Leipzig match "robotics companies in Leipzig"; two listed beside them do not.
 */
interface Site {
  host: string;
  name: string;
  ceo: string | null;
  /** The page search finds: its route, its title and its words. */
  route: '/' | '/about';
  title: string;
  body: string;
}

const SITES: Site[] = [
  {
    host: 'lindenau-robotics.test',
    name: 'Lindenau Robotics',
    ceo: 'Marta Kowalczyk',
    route: '/about',
    title: 'About Lindenau Robotics',
    body: '<h1>About us</h1><p>Lindenau Robotics designs mobile robotics for warehouses. Our workshop and offices are in Leipzig, next to the Karl-Heine canal.</p><p>Marta Kowalczyk is our chief executive. Before Lindenau she ran operations at a parcel carrier for eight years.</p><p>Our chief technology officer, Daniel Ostrowski, leads a team of 40 engineers.</p>',
  },
  {
    host: 'pleisse-motion.test',
    name: 'Pleisse Motion',
    ceo: 'Jonas Brandt',
    route: '/',
    title: 'Welcome to Pleisse Motion | Home',
    body: '<h1>Motion that keeps lines running</h1><p>Pleisse Motion builds robotics arms for small factories. We started in a garage in Leipzig and still build every arm there.</p><p>The company is led by CEO Jonas Brandt, who joined from the automotive industry in 2019.</p><p>Request a demo or visit our showroom.</p>',
  },
  {
    host: 'auwald-automation.test',
    name: 'Auwald Automation',
    ceo: 'Lena Vogt',
    route: '/',
    title: 'Auwald Automation – Home',
    body: '<h1>Automation for the lab bench</h1><p>Auwald Automation makes robotics for laboratories, from pipetting arms to sample sorters, designed and assembled in Leipzig.</p><h2>Leadership</h2><ul><li>Chief Executive Officer: Lena Vogt</li><li>Chief Technology Officer: Paul Hesse</li><li>Head of Sales: Greta Lindholm</li></ul>',
  },
  {
    host: 'plagwitz-grippers.test',
    name: 'Plagwitz Grippers',
    ceo: 'Tobias Reiner',
    route: '/',
    title: 'Plagwitz Grippers — Official Website',
    body: '<h1>Grippers for every part</h1><p>Plagwitz Grippers supplies the hands of industrial robotics: soft grippers, vacuum cups and tool changers, made in Leipzig since 2011.</p><h2>Our team</h2><p>Tobias Reiner, Chief Executive Officer</p><p>Ines Bauer, Chief Financial Officer</p>',
  },
  {
    host: 'gohlis-drives.test',
    name: 'Gohlis Drives',
    ceo: 'Anja Ruhl',
    route: '/about',
    title: 'About us · Gohlis Drives',
    body: '<h1>Who we are</h1><p>Gohlis Drives builds the motors and gearboxes inside robotics joints. Our factory is in Leipzig.</p><p>Under chief executive Anja Ruhl, the company has grown from six people to sixty.</p>',
  },
  // Listed in the same directory, but not robotics companies in Leipzig.
  {
    host: 'elster-robotics.test',
    name: 'Elster Robotics',
    ceo: null,
    route: '/',
    title: 'Elster Robotics – Home',
    body: '<h1>Elster Robotics</h1><p>Elster Robotics builds inspection robotics for bridges, from our base in Dresden.</p><p>Chief executive: Karin Mauer.</p>',
  },
  {
    host: 'messe-software.test',
    name: 'Messe Software',
    ceo: null,
    route: '/',
    title: 'Welcome to Messe Software',
    body: '<h1>Messe Software</h1><p>Messe Software writes booking software for trade fairs in Leipzig.</p><p>Chief executive: Olaf Brandis.</p>',
  },
];
const MATCHING = SITES.filter((s) => s.ceo !== null);
const DIRECTORY = 'saxony-companies.test';

const html = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav><main>${body}</main><footer><p>Imprint · Privacy · Careers</p></footer></body></html>\n`;

function writeSites(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-findall-names-'));
  for (const site of SITES) {
    const dir = path.join(root, site.host);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, site.route === '/' ? 'index.html' : 'about.html'), html(site.title, site.body));
    // The other page of the site: a home page that says little, or an about page that repeats it.
    if (site.route === '/about')
      fs.writeFileSync(
        path.join(dir, 'index.html'),
        html(`${site.name} | Home`, `<h1>${site.name}</h1><p>${site.name}: robotics parts from Leipzig.</p>`),
      );
  }
  const rows = SITES.map(
    (s) =>
      `<li><a href="{{site:${s.host}}}/">${s.name}</a> – ${s.body.includes('Dresden') ? 'Dresden' : 'Leipzig'}</li>`,
  ).join('');
  fs.mkdirSync(path.join(root, DIRECTORY), { recursive: true });
  fs.writeFileSync(
    path.join(root, DIRECTORY, 'index.html'),
    html(
      'Saxony company directory: robotics and technology firms',
      `<h1>Companies in Saxony</h1><p>Members of the regional technology association.</p><ul>${rows}</ul>`,
    ),
  );
  return root;
}

/** A SearXNG stand-in: every query finds the companies' own pages first, then the directory. */
async function searchOver(web: FixtureWeb): Promise<ReplayServer> {
  const results = [
    ...MATCHING.map((s) => ({
      url: `${web.baseUrl(s.host)}${s.route}`,
      title: s.title,
      content: `${s.name} builds robotics in Leipzig.`,
    })),
    {
      url: `${web.baseUrl(DIRECTORY)}/`,
      title: 'Saxony company directory: robotics and technology firms',
      content: 'Companies in Saxony.',
    },
  ].map((r, i, all) => ({ ...r, engine: 'stub', engines: ['stub'], score: all.length - i, category: 'general' }));
  return ReplayServer.start({
    routes: [
      {
        path: '/search',
        respond: (req) => ({
          body: {
            query: req.query.q,
            number_of_results: results.length,
            results,
            answers: [],
            corrections: [],
            infoboxes: [],
            suggestions: [],
            unresponsive_engines: [],
          },
        }),
      },
    ],
  });
}

type View = {
  findall_id: string;
  status: string | { status: string };
  entities: (Record<string, unknown> & { name: string; url: string })[];
  usage_items: { sku: string; quantity: number }[];
};

describe('FindAll names entities as companies name themselves, and enrich fills their chief executive (standalone)', () => {
  let web: FixtureWeb;
  let search: ReplayServer;
  let svc: RunningService;

  beforeAll(async () => {
    web = await startFixtureWeb(writeSites());
    search = await searchOver(web);
    svc = await startService('standalone', searxngEnv(search, web));
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await search?.close();
    await web?.stop();
  });

  const headers = () => ({ ...bearer(svc.demoKey), 'Content-Type': 'application/json' });
  const view = async (id: string): Promise<View> =>
    json(await fetch(`${svc.baseUrl}/v1/findall/runs/${id}`, { headers: headers() }));

  it('"robotics companies in Leipzig": each entity is named by its bare name, once, and gets its own chief executive', async () => {
    const response = await fetch(`${svc.baseUrl}/v1/findall`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ query: 'robotics companies in Leipzig', limit: 20, wait_seconds: 60 }),
    });
    expect(response.status).toBe(200);
    const run: View = await json(response);
    expect(run.status).toMatchObject({ status: 'completed' });
    // The bare company names: no "About", "Welcome to", "Home" or site suffix, and no company twice under two name forms.
    expect(run.entities.map((e) => e.name).sort()).toEqual(MATCHING.map((s) => s.name).sort());

    const enrich = await fetch(`${svc.baseUrl}/v1/findall/runs/${run.findall_id}/enrich`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ fields: ['chief_executive'] }),
    });
    expect(enrich.status).toBe(200);
    let enriched = await view(run.findall_id);
    for (
      let i = 0;
      i < 400 && (enriched.usage_items.find((u) => u.sku === 'sku_findall_enrich')?.quantity ?? 0) < MATCHING.length;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 25));
      enriched = await view(run.findall_id);
    }
    expect(enriched.usage_items.find((u) => u.sku === 'sku_findall_enrich')?.quantity).toBe(MATCHING.length);
    const ceos = Object.fromEntries(enriched.entities.map((e) => [e.name, e.chief_executive]));
    expect(ceos).toEqual(Object.fromEntries(MATCHING.map((s) => [s.name, s.ceo])));
  });
});
