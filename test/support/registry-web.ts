import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startFixtureWeb, type FixtureWeb } from './fixture-web';
import { ReplayServer } from './replay-server';
import { type Mode, type RunningService, startService } from './service-process';

/**
 * A made-up startup registry for FindAll: a directory of companies over several pages (each
 * linking to the next), and a profile page per company that states its industry, city, founding
 * year and head count in varied words. The directory rows give only a name and a one-line
 * description, so conditions must be checked on the profiles. Some companies match some
 * conditions but not all; one is listed twice under another name form. Written to a temporary
 * folder at test time and served by the fixture web, so the gold sets below come from the same
 * table as the pages.
 */
export interface RegistryCompany {
  slug: string;
  name: string;
  industry: 'robotics' | 'energy storage' | 'software' | 'biotech' | 'logistics';
  city: string;
  founded: number;
  employees: number;
}

const C = (
  slug: string,
  name: string,
  industry: RegistryCompany['industry'],
  city: string,
  founded: number,
  employees: number,
): RegistryCompany => ({ slug, name, industry, city, founded, employees });

export const REGISTRY: RegistryCompany[] = [
  C('kraftwerk-robotics', 'Kraftwerk Robotics', 'robotics', 'Berlin', 2017, 85),
  C('spree-motion', 'Spree Motion', 'robotics', 'Berlin', 2019, 32),
  C('havel-automation', 'Havel Automation', 'robotics', 'Potsdam', 2016, 140),
  C('isar-grippers', 'Isar Grippers', 'robotics', 'Munich', 2018, 60),
  C('elbe-drones', 'Elbe Drones', 'robotics', 'Hamburg', 2012, 210),
  C('tegel-bots', 'Tegel Bots', 'robotics', 'Berlin', 2013, 44),
  C('main-kinetics', 'Main Kinetics', 'robotics', 'Frankfurt', 2021, 18),
  C('neckar-arms', 'Neckar Arms', 'robotics', 'Stuttgart', 2015, 95),
  C('ruhr-rover', 'Ruhr Rover', 'robotics', 'Essen', 2020, 27),
  C('weser-walkers', 'Weser Walkers', 'robotics', 'Bremen', 2017, 51),
  C('lausitz-lift', 'Lausitz Lift', 'robotics', 'Berlin', 2022, 12),
  C('alster-sense', 'Alster Sense', 'robotics', 'Hamburg', 2016, 73),
  C('voltkeller', 'Voltkeller', 'energy storage', 'Berlin', 2014, 120),
  C('sonnenbank', 'Sonnenbank Energy', 'energy storage', 'Munich', 2011, 300),
  C('salzspeicher', 'Salzspeicher', 'energy storage', 'Leipzig', 2019, 40),
  C('windpuffer', 'Windpuffer', 'energy storage', 'Kiel', 2016, 66),
  C('graphit-cells', 'Graphit Cells', 'energy storage', 'Dresden', 2018, 150),
  C('akku-werk', 'Akkuwerk', 'energy storage', 'Berlin', 2020, 58),
  C('natrium-nord', 'Natrium Nord', 'energy storage', 'Rostock', 2021, 22),
  C('codeberg-labs', 'Codeberg Labs', 'software', 'Berlin', 2012, 400),
  C('mauerpark-ai', 'Mauerpark AI', 'software', 'Berlin', 2018, 65),
  C('isarcloud', 'IsarCloud', 'software', 'Munich', 2015, 230),
  C('hafen-data', 'Hafen Data', 'software', 'Hamburg', 2010, 520),
  C('schwarzwald-soft', 'Schwarzwald Soft', 'software', 'Freiburg', 2017, 38),
  C('kiez-apps', 'Kiez Apps', 'software', 'Berlin', 2021, 14),
  C('rhein-ledger', 'Rhein Ledger', 'software', 'Cologne', 2019, 90),
  C('brandenburg-bio', 'Brandenburg Bio', 'biotech', 'Potsdam', 2014, 110),
  C('charite-cells', 'Spreeklinik Cells', 'biotech', 'Berlin', 2016, 75),
  C('enzym-nord', 'Enzym Nord', 'biotech', 'Hamburg', 2018, 48),
  C('bavaria-genomics', 'Bavaria Genomics', 'biotech', 'Munich', 2012, 260),
  C('heidelberg-fold', 'Heidelberg Fold', 'biotech', 'Heidelberg', 2020, 35),
  C('mikrobe', 'Mikrobe', 'biotech', 'Berlin', 2022, 9),
  C('leine-peptide', 'Leine Peptide', 'biotech', 'Hanover', 2015, 57),
  C('paketpilot', 'Paketpilot', 'logistics', 'Berlin', 2015, 180),
  C('kanal-freight', 'Kanal Freight', 'logistics', 'Duisburg', 2013, 340),
  C('letzte-meile', 'Letzte Meile', 'logistics', 'Berlin', 2019, 95),
  C('hafenkran', 'Hafenkran Logistics', 'logistics', 'Hamburg', 2011, 610),
  C('spedition-sued', 'Spedition Sued', 'logistics', 'Nuremberg', 2018, 70),
  C('bahnhof-box', 'Bahnhof Box', 'logistics', 'Leipzig', 2021, 26),
  C('lager-logik', 'Lager Logik', 'logistics', 'Dortmund', 2017, 115),
  C('tempelhof-robotics', 'Tempelhof Robotics', 'robotics', 'Berlin', 2015, 66),
  C('pankow-pick', 'Pankow Pick', 'robotics', 'Berlin', 2018, 41),
  C('wedding-welding', 'Wedding Welding Robots', 'robotics', 'Leipzig', 2019, 29),
  C('oder-optics', 'Oder Optics', 'robotics', 'Frankfurt (Oder)', 2017, 23),
];

/**
 * A registry the size real FindAll queries reach (hundreds of candidates): the companies above and
 * `n - REGISTRY.length` more, made up from the same parts (a place word and a trade word) with
 * industry, city, year and head count drawn from a seeded generator, so every run of a bench sees
 * the same registry and its gold sets come from this table.
 */
export function largeRegistry(n: number): RegistryCompany[] {
  const places = ['Ahorn', 'Birken', 'Dachs', 'Eichen', 'Falken', 'Ginster', 'Holunder', 'Igel', 'Kranich', 'Linden'];
  const trades = ['Werk', 'Bau', 'Feld', 'Haus', 'Hof', 'Quelle', 'Brunnen', 'Garten', 'Turm', 'Steg', 'Tor', 'Markt'];
  const industries: RegistryCompany['industry'][] = ['robotics', 'energy storage', 'software', 'biotech', 'logistics'];
  const cities = [...new Set(REGISTRY.map((c) => c.city))];
  let seed = 42;
  const next = (m: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % m;
  };
  const out = [...REGISTRY];
  for (let i = 0; out.length < n; i++) {
    const place = places[i % places.length]!;
    const trade = trades[Math.floor(i / places.length) % trades.length]!;
    const round = Math.floor(i / (places.length * trades.length));
    const name = `${place}${trade.toLowerCase()}${round ? ` ${round + 1}` : ''}`;
    const slug = name.toLowerCase().replace(/\s+/g, '-');
    out.push(
      C(slug, name, industries[next(industries.length)]!, cities[next(cities.length)]!, 2008 + next(15), 5 + next(600)),
    );
  }
  return out;
}

/** Rows per directory page; the directory lists every company once, plus one twin (another name form). */
const PER_PAGE = 12;
const TWIN = { slug: 'kraftwerk-robotics', name: 'Kraftwerk Robotics GmbH' };

const phrasing = (c: RegistryCompany, i: number): string => {
  const place = [`headquartered in ${c.city}`, `based in ${c.city}`, `with its head office in ${c.city}`][i % 3];
  const founded = [`was founded in ${c.founded}`, `started in ${c.founded}`, `has been operating since ${c.founded}`][
    i % 3
  ];
  const staff = [`employs ${c.employees} people`, `has a team of ${c.employees}`, `counts ${c.employees} employees`][
    (i + 1) % 3
  ];
  return `${c.name} is a ${c.industry} company ${place}. The company ${founded} and ${staff}.`;
};

const blurb = (c: RegistryCompany): string =>
  ({
    robotics: 'Machines that move goods and parts.',
    'energy storage': 'Batteries and buffers for the grid.',
    software: 'Products built in code.',
    biotech: 'Research at the bench.',
    logistics: 'Moving parcels and pallets.',
  })[c.industry];

const page = (title: string, body: string, canonical: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="canonical" href="${canonical}"></head><body><main>${body}</main></body></html>\n`;

/** Writes the registry site into a fresh folder (one host: startups.example.test). */
export function writeRegistrySite(companies: RegistryCompany[] = REGISTRY): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-registry-'));
  const site = path.join(root, 'startups.example.test');
  fs.mkdirSync(path.join(site, 'directory'), { recursive: true });
  fs.mkdirSync(path.join(site, 'companies'), { recursive: true });
  const rows = [
    ...companies.map((c) => ({ slug: c.slug, name: c.name, c })),
    { ...TWIN, c: companies.find((c) => c.slug === TWIN.slug)! },
  ];
  const pages = Math.ceil(rows.length / PER_PAGE);
  for (let p = 1; p <= pages; p++) {
    const slice = rows.slice((p - 1) * PER_PAGE, p * PER_PAGE);
    const table = slice
      .map((r) => `<tr><td><a href="/companies/${r.slug}">${r.name}</a></td><td>${blurb(r.c)}</td></tr>`)
      .join('');
    const next = p < pages ? `<p><a href="/directory/page-${p + 1}" rel="next">Next page</a></p>` : '';
    const body = `<h1>Startup registry: companies (page ${p} of ${pages})</h1><p>The registry lists young German companies and their profiles.</p><table><thead><tr><th>Company</th><th>About</th></tr></thead><tbody>${table}</tbody></table>${next}`;
    fs.writeFileSync(
      path.join(site, 'directory', `page-${p}.html`),
      page(`Startup registry, page ${p}`, body, `https://startups.example.test/directory/page-${p}`),
    );
  }
  fs.writeFileSync(
    path.join(site, 'index.html'),
    page(
      'Startup registry',
      '<h1>Startup registry</h1><p>A directory of German startup companies: robotics, energy storage, software, biotech and logistics companies, with a profile page for each.</p><p><a href="/directory/page-1">Browse the company directory</a></p>',
      'https://startups.example.test/',
    ),
  );
  // Linked from nowhere: a page a bench reads to warm a service up without caching a registry page.
  fs.writeFileSync(
    path.join(site, 'about.html'),
    page(
      'About the registry',
      '<h1>About the registry</h1><p>The registry is kept by volunteers, who check each company profile once a year against the public trade register.</p>',
      'https://startups.example.test/about',
    ),
  );
  companies.forEach((c, i) => {
    const body = `<h1>${c.name}</h1><p>${phrasing(c, i)}</p><p>${blurb(c)}</p>`;
    fs.writeFileSync(
      path.join(site, 'companies', `${c.slug}.html`),
      page(`${c.name}: company profile`, body, `https://startups.example.test/companies/${c.slug}`),
    );
  });
  return root;
}

export async function startRegistryWeb(
  options: { delayMs?: number; companies?: RegistryCompany[] } = {},
): Promise<FixtureWeb> {
  return startFixtureWeb(writeRegistrySite(options.companies), { delayMs: options.delayMs });
}

/** Gold sets, computed from the same table as the pages. */
export const registryGold = {
  headquarteredIn: (city: string) =>
    REGISTRY.filter((c) => c.city === city)
      .map((c) => c.name)
      .sort(),
  industryFoundedAfter: (industry: RegistryCompany['industry'], year: number) =>
    REGISTRY.filter((c) => c.industry === industry && c.founded > year)
      .map((c) => c.name)
      .sort(),
  moreEmployeesThan: (n: number) =>
    REGISTRY.filter((c) => c.employees > n)
      .map((c) => c.name)
      .sort(),
};

/** A SearXNG stand-in over the registry: every query finds the registry's home page and its first directory page. */
export async function registrySearch(web: FixtureWeb): Promise<ReplayServer> {
  const host = 'startups.example.test';
  const results = [`${web.baseUrl(host)}/`, `${web.baseUrl(host)}/directory/page-1`].map((url, i) => ({
    url,
    title: i === 0 ? 'Startup registry' : 'Startup registry, page 1',
    content: 'German startup companies.',
    engine: 'stub',
    engines: ['stub'],
    score: 2 - i,
    category: 'general',
  }));
  return ReplayServer.start({
    routes: [
      {
        path: '/search',
        respond: (req) => ({
          body: {
            query: req.query.q,
            number_of_results: 2,
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

/** The registry web, its search stand-in, and the service searching it (stopped together). */
export async function startRegistryService(
  mode: Mode,
  options: { delayMs?: number; env?: Record<string, string>; companies?: RegistryCompany[] } = {},
): Promise<{ web: FixtureWeb; svc: RunningService; stop(): Promise<void> }> {
  const web = await startRegistryWeb({ delayMs: options.delayMs, companies: options.companies });
  const search = await registrySearch(web);
  const svc = await startService(mode, {
    SEARCH_PROVIDER: 'searxng',
    SEARXNG_URL: search.url,
    SEARXNG_RPS: '0',
    FETCH_ALLOW_HOSTS: web.allowHosts.join(','),
    ...options.env,
  });
  return {
    web,
    svc,
    stop: async () => {
      await svc.stop();
      await search.close();
      await web.stop();
    },
  };
}
