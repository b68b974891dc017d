import { tokenize } from '@app/text';
import { fillSchemaExtractively, SYNONYMS } from './extractive.schema-filler';

const company = {
  url: 'https://northwind-tools.example/about',
  title: 'About Northwind Tools',
  text: [
    'Northwind Tools was established in 1987 by Ines Varga in a garage in Tampere.',
    'The company is headquartered in Tampere, Finland, and employs about 3,400 people worldwide.',
    'Revenue for the last fiscal year was EUR 412 million, up 8 percent.',
    '',
    'Division\tStaff',
    'Hand tools\t1,200',
    'Power tools\t2,200',
  ].join('\n'),
};
const unrelated = {
  url: 'https://other.example/news',
  title: 'Harbour news',
  text: 'The ferry company was founded in 1902 and employs 45 people in Turku.',
};

const schema = {
  type: 'object',
  properties: {
    founded_year: { type: 'integer', description: 'Year the company was founded' },
    headquarters: { type: 'string', description: 'City of the headquarters' },
    employees: { type: 'integer', description: 'Number of employees' },
    revenue: { type: 'string', description: 'Revenue in the last fiscal year' },
    revenue_growth: { type: 'number', description: 'Revenue growth in percent' },
    founder: { type: 'string', description: 'Name of the founder' },
    ticker: { type: 'string', description: 'Stock ticker symbol' },
  },
};

describe('fillSchemaExtractively', () => {
  const result = fillSchemaExtractively({
    task: 'Company facts about Northwind Tools',
    schema,
    documents: [unrelated, company],
  });
  const output = result.output as Record<string, unknown>;

  it('fills each field with a value of the kind it asks for, from the sentence that states it', () => {
    expect(output).toMatchObject({
      founded_year: 1987,
      headquarters: 'Tampere',
      employees: 3400,
      revenue: 'EUR 412 million',
      revenue_growth: 8,
      founder: 'Ines Varga',
    });
  });

  it('ignores a page that never names the entity, even when it states the same kinds of fact', () => {
    expect(result.basis.flatMap((b) => b.citations.map((c) => c.url))).not.toContain(unrelated.url);
  });

  it('cites verbatim excerpts of the page it read, one basis per field in schema order', () => {
    expect(result.basis.map((b) => b.field)).toEqual(Object.keys(schema.properties));
    for (const basis of result.basis.filter((b) => b.citations.length)) {
      for (const citation of basis.citations)
        for (const excerpt of citation.excerpts) expect(company.text).toContain(excerpt);
      expect(basis.reasoning.length).toBeGreaterThan(10);
    }
  });

  it('leaves a field no page states null, with low confidence and reasoning that says so', () => {
    expect(output.ticker).toBeNull();
    expect(result.basis.find((b) => b.field === 'ticker')).toMatchObject({
      citations: [],
      confidence: 'low',
      reasoning: expect.stringMatching(/no page/i),
    });
  });

  it('reads a table row by its label', () => {
    const table = fillSchemaExtractively({
      task: 'Northwind Tools divisions',
      schema: {
        type: 'object',
        properties: { power_tools_staff: { type: 'string', description: 'Staff of the power tools division' } },
      },
      documents: [company],
    });
    expect((table.output as Record<string, unknown>).power_tools_staff).toBe('2,200');
  });

  it('picks the number that shares a clause with the field’s words', () => {
    const recipe = {
      url: 'https://bakery.example/bread',
      title: 'Country bread',
      text: 'Mix 700 grams of wheat flour, 500 grams of water and 14 grams of salt.',
    };
    const filled = fillSchemaExtractively({
      task: 'Country bread recipe',
      schema: {
        type: 'object',
        properties: {
          water_grams: { type: 'integer' },
          salt_grams: { type: 'integer' },
          flour_grams: { type: 'integer' },
        },
      },
      documents: [recipe],
    });
    expect(filled.output).toEqual({ water_grams: 500, salt_grams: 14, flour_grams: 700 });
  });

  it('binds a number to the field word right after it (its unit)', () => {
    const recipe = {
      url: 'https://bakery.example/buns',
      title: 'Buns',
      text: 'Brush with egg and bake at 210 degrees Celsius for 12 minutes.',
    };
    const filled = fillSchemaExtractively({
      task: 'Buns recipe',
      schema: {
        type: 'object',
        properties: {
          oven_celsius: { type: 'integer', description: 'Oven temperature in degrees Celsius' },
          bake_minutes: { type: 'integer', description: 'Baking time in minutes' },
        },
      },
      documents: [recipe],
    });
    expect(filled.output).toEqual({ oven_celsius: 210, bake_minutes: 12 });
  });

  it('reads a "Name, Title" list line by line, and never joins names across line breaks', () => {
    const team = {
      url: 'https://northwind-tools.example/team',
      title: 'Northwind Tools team',
      text: 'Leadership\nIvo Brandt, Chief Executive Officer\nMia Sorensen, Chief Technology Officer\nOla Berg, Chief Financial Officer',
    };
    const filled = fillSchemaExtractively({
      task: 'Northwind Tools leadership',
      schema: {
        type: 'object',
        properties: { ceo: { type: 'string', description: 'Name of the chief executive officer' } },
      },
      documents: [team],
    });
    expect(filled.output).toEqual({ ceo: 'Ivo Brandt' });
    const headlines = {
      url: 'https://daily.example/',
      title: 'Northwind Tools news',
      text: 'Northwind Tools opens a plant in Tampere\nHarbour festival draws crowds',
    };
    const place = fillSchemaExtractively({
      task: 'Northwind Tools new plant',
      schema: { type: 'object', properties: { city: { type: 'string', description: 'City of the new plant' } } },
      documents: [headlines],
    });
    expect(place.output).toEqual({ city: 'Tampere' });
  });

  it('answers a non-object schema as the single field `output`', () => {
    const single = fillSchemaExtractively({
      task: 'When was Northwind Tools founded?',
      schema: { type: 'integer', description: 'founding year' },
      documents: [company],
    });
    expect(single.output).toBe(1987);
    expect(single.basis.map((b) => b.field)).toEqual(['output']);
  });
});

describe('field synonyms', () => {
  // A key is what tokenize makes of a field word (the word itself, or it with a plural or final e).
  it.each(Object.keys(SYNONYMS))('%s is keyed as the stemmed field word the lookup sees', (key) =>
    expect([key, `${key}e`, `${key}s`, `${key}es`].some((word) => tokenize(word)[0] === key)).toBe(true),
  );
});

describe('fillSchemaExtractively: a tenure is not a founding', () => {
  const leadership = {
    url: 'https://kestrel-tools.example/team',
    title: 'Leadership',
    text: 'Kestrel Tools is led by chief executive Maren Holt, who has run Kestrel Tools since 2012. She joined from a supplier.',
  };
  const history = {
    url: 'https://kestrel-tools.example/history',
    title: 'History',
    text: 'Kestrel Tools was founded in 1997 in Bergen by two machinists.',
  };
  const founded = {
    type: 'object',
    properties: { founded_year: { type: 'integer', description: 'Year the company was founded' } },
  };

  it('reads the founding year from the page that states it, not the year a chief executive took over', () => {
    const filled = fillSchemaExtractively({
      task: 'Company profile of Kestrel Tools',
      schema: founded,
      documents: [leadership, history],
    });
    expect(filled.output).toEqual({ founded_year: 1997 });
  });

  it('leaves the founding year null when only a tenure is stated', () => {
    const filled = fillSchemaExtractively({
      task: 'Company profile of Kestrel Tools',
      schema: founded,
      documents: [leadership],
    });
    expect(filled.output).toEqual({ founded_year: null });
    expect(filled.basis[0]!.confidence).toBe('low');
  });

  it('still reads "in business since 1997" as the founding', () => {
    const since = {
      url: 'https://kestrel-tools.example/',
      title: 'Kestrel Tools',
      text: 'Kestrel Tools has been in business since 1997, making hand tools in Bergen.',
    };
    expect(
      fillSchemaExtractively({ task: 'Company profile of Kestrel Tools', schema: founded, documents: [since] }).output,
    ).toEqual({ founded_year: 1997 });
  });
});

describe('fillSchemaExtractively: a field spelt out in full finds its abbreviation', () => {
  const field = (name: string) => ({
    type: 'object',
    properties: { [name]: { type: 'string', description: name.replace(/_/g, ' ') } },
  });
  const home = {
    url: 'https://pleisse-motion.example/',
    title: 'Welcome to Pleisse Motion | Home',
    text: 'Pleisse Motion builds robot arms for small factories in Leipzig.\nThe company is led by CEO Jonas Brandt, who joined in 2019. Its CTO is Paul Hesse.',
  };

  it('"chief_executive" is read from "led by CEO <Name>", and "chief_technology_officer" from "CTO"', () => {
    expect(
      fillSchemaExtractively({ task: 'Pleisse Motion', schema: field('chief_executive'), documents: [home] }).output,
    ).toEqual({ chief_executive: 'Jonas Brandt' });
    expect(
      fillSchemaExtractively({ task: 'Pleisse Motion', schema: field('chief_technology_officer'), documents: [home] })
        .output,
    ).toEqual({ chief_technology_officer: 'Paul Hesse' });
  });

  it('a field that only shares a word with the phrase ("chief_engineer") does not search the abbreviation', () => {
    expect(
      fillSchemaExtractively({ task: 'Pleisse Motion', schema: field('chief_engineer'), documents: [home] }).output,
    ).toEqual({ chief_engineer: null });
  });
});

describe('fillSchemaExtractively: a field about a company reads its own page', () => {
  const report = {
    url: 'https://brantholm-marine.example/investors/annual-report-2023',
    title: 'Brantholm Marine Annual Report 2023',
    text: 'Brantholm Marine Annual Report 2023. In fiscal year 2023 the group delivered revenue of 412 million euros, up 9 percent on 2022. The board proposes a dividend of 1.20 euros per share for 2023. Our shipyards in Kessvik and Tarnö completed eleven vessels during 2023.',
  };
  const about = {
    url: 'https://brantholm-marine.example/about',
    title: 'About Brantholm Marine',
    text: 'Brantholm Marine builds hybrid ferries and offshore service vessels. The company was founded in 1997 by two naval architects in Tarnö. In 2015 it moved its headquarters to Orvik, where about 900 people now work.',
  };
  const other = {
    url: 'https://news.example/shipbuilding-2023',
    title: 'Shipbuilders expand in 2023',
    text: 'Several Nordic yards expanded in 2023. Kessvik Yards, established in 1954, added a dry dock.',
  };
  const schema = {
    type: 'object',
    properties: {
      founded_year: { type: 'integer', description: 'Year the company was founded' },
      headquarters: { type: 'string', description: 'City of its headquarters' },
    },
  };

  it.each([
    ['the annual report first', [report, about, other]],
    ['another company first', [other, report, about]],
  ])(
    'takes the founding year its own page states, not a filing year (%s), and a moved headquarters where it is now',
    (_, documents) => {
      const filled = fillSchemaExtractively({ task: 'Company profile of Brantholm Marine', schema, documents });
      expect(filled.output).toEqual({ founded_year: 1997, headquarters: 'Orvik' });
    },
  );
});
