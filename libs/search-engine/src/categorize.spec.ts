import { categorize } from './categorize';

const FIRST_PERSON_BIO =
  "Hi, I'm Mara. I am a materials scientist and my group and I work on sodium-ion batteries. I grew up on an island, which is why I care " +
  'about storing energy. My current obsession is why cathodes crack. I also teach electrochemistry and I run a reading group.';
const TEAM_BIO =
  'Dana Whitfield leads hardware, perception and fleet software engineering at Acme Robotics. Before co-founding the company she spent six ' +
  'years at a robotics institute working on grasp planning for cluttered bins, the research that became the picker arm product line.';

describe('categorize', () => {
  describe('from the JSON-LD type', () => {
    it.each([
      [['NewsArticle'], 'news'],
      [['ReportageNewsArticle', 'Organization'], 'news'],
      [['ScholarlyArticle'], 'research_paper'],
      [['https://schema.org/ScholarlyArticle'], 'research_paper'],
      [['Organization'], 'company'],
      [['Corporation'], 'company'],
      [['NewsMediaOrganization'], 'company'],
      [['WebSite', 'Organization'], 'company'],
      [['Organization', 'Person', 'PostalAddress'], 'company'],
      [['Dataset', 'Person'], null],
      [['Recipe'], null],
    ] as const)('%j -> %s', (schemaTypes, expected) => {
      expect(
        categorize({
          url: 'https://site.example/page',
          title: 'A page',
          text: 'Some words.',
          schemaTypes: [...schemaTypes],
        }),
      ).toBe(expected);
    });

    it("the page's own (first) type decides, not the types nested in it", () => {
      expect(
        categorize({ url: 'https://x.example/', schemaTypes: ['ScholarlyArticle', 'Person', 'Organization'] }),
      ).toBe('research_paper');
      expect(
        categorize({ url: 'https://x.example/', schemaTypes: ['Person', 'ScholarlyArticle'], text: TEAM_BIO }),
      ).toBe('people');
    });

    it('a Person on a company team page is people; on a first-person home page it is a personal site', () => {
      expect(
        categorize({
          url: 'https://acme.example/team/dana-whitfield',
          schemaTypes: ['ProfilePage', 'Person'],
          text: TEAM_BIO,
        }),
      ).toBe('people');
      expect(categorize({ url: 'https://mara.example/', schemaTypes: ['Person'], text: FIRST_PERSON_BIO })).toBe(
        'personal_site',
      );
    });

    it('a first-person blog post on a personal site is a personal site', () => {
      expect(
        categorize({
          url: 'https://mara.example/blog/why-sodium',
          schemaTypes: ['BlogPosting', 'Person'],
          text: FIRST_PERSON_BIO,
        }),
      ).toBe('personal_site');
    });
  });

  describe('financial reports', () => {
    it.each([
      ['Acme Robotics reports Q2 2025 results', 'https://acme.example/investors/latest'],
      ['Annual report and Form 10-K', 'https://acme.example/filings'],
      ['HelioGrid quarterly report', 'https://helio.example/reports/latest'],
    ])('title %j', (title, url) => {
      expect(categorize({ url, title, text: 'Figures for the period.', schemaTypes: ['Organization'] })).toBe(
        'financial_report',
      );
    });

    it('an investor-relations path with money words', () => {
      expect(
        categorize({ url: 'https://acme.example/investors/update', title: 'Update', text: 'Revenue grew 31 percent.' }),
      ).toBe('financial_report');
    });

    it('an investor landing page without figures is not a report', () => {
      expect(
        categorize({
          url: 'https://acme.example/investors',
          title: 'Investor relations',
          text: 'Calendar of events.',
          schemaTypes: ['Organization'],
        }),
      ).toBe('company');
    });

    it('a newspaper article about earnings stays news', () => {
      expect(
        categorize({
          url: 'https://daily.example/business/x',
          title: 'Acme quarterly results beat forecasts',
          schemaTypes: ['NewsArticle'],
        }),
      ).toBe('news');
    });
  });

  describe('without JSON-LD', () => {
    it.each([
      ['https://arxiv.org/abs/2401.00001', 'research_paper'],
      ['https://repo.example/papers/bm25.html', 'research_paper'],
      ['https://news.daily.example/city/tram', 'news'],
      ['https://acme.example/news/rotterdam-hub', 'news'],
      ['https://acme.example/team/dana', 'people'],
      ['https://acme.example/about', 'company'],
      ['https://acme.example/products/arm', 'company'],
      ['https://uni.example/~mara/', 'personal_site'],
      ['https://bakers.example/recipes/rye', null],
    ])('URL %s -> %s', (url, expected) => {
      expect(categorize({ url, title: 'Page', text: 'Plain words about things.' })).toBe(expected);
    });

    it('citation meta tags make a research paper', () => {
      expect(categorize({ url: 'https://x.example/item/7', citationMeta: true })).toBe('research_paper');
    });

    it('og:type profile makes people', () => {
      expect(categorize({ url: 'https://x.example/u/7', ogType: 'profile', text: TEAM_BIO })).toBe('people');
    });

    it('a first-person home page is a personal site; the same words deep in a site are not', () => {
      expect(categorize({ url: 'https://tomas.example/', title: 'Tomás', text: FIRST_PERSON_BIO })).toBe(
        'personal_site',
      );
      expect(
        categorize({ url: 'https://big.example/forum/threads/123', title: 'Thread', text: FIRST_PERSON_BIO }),
      ).toBeNull();
    });

    it('an abstract with references reads as a paper', () => {
      expect(
        categorize({
          url: 'https://x.example/doc',
          text: 'Abstract. We study things. Keywords: retrieval. References: Smith et al. 2020.',
        }),
      ).toBe('research_paper');
    });
  });
});
