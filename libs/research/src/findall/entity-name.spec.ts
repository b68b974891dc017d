import { entityNameOf } from './list-pages';

describe('entityNameOf: the entity a page stands for, named from its title', () => {
  it.each([
    ['About Acme Robotics', 'Acme Robotics'],
    ['About us - Acme Robotics', 'Acme Robotics'],
    ['Home | Kestrel & Loaf', 'Kestrel & Loaf'],
    ['Welcome to Ledgerlark', 'Ledgerlark'],
    ['Acme Robotics — Careers', 'Acme Robotics'],
    ['Acme Robotics | Official Website', 'Acme Robotics'],
    ['Our story: Helio Grid', 'Helio Grid'],
    ['HelioGrid', 'HelioGrid'],
    ['About me · Mara Lindqvist', 'Mara Lindqvist'],
    ['About HelioGrid | Renewable energy company from Freiburg', 'HelioGrid'],
  ])('%s -> %s', (title, name) => {
    expect(entityNameOf(title)).toBe(name);
  });

  it('keeps a name that merely starts like a page word', () => {
    expect(entityNameOf('Homestead Robotics')).toBe('Homestead Robotics');
    expect(entityNameOf('Newsweek')).toBe('Newsweek');
  });

  it('keeps the title when it holds nothing but page words', () => {
    expect(entityNameOf('About us')).toBe('About us');
  });
});

describe('entityNameOf on a hostile title', () => {
  it('reads only the head of a megabyte title of separators, spaces and page words, and answers at once', () => {
    const hostile = `Acme Robotics${' '.repeat(500_000)}|${' about us - home'.repeat(30_000)}`;
    expect(entityNameOf(hostile)).toBe('Acme Robotics');
    expect(entityNameOf(' \t\n'.repeat(300_000))).toBe('');
  });
});
