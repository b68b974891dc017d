import { applyHeapGrowth } from './boot';

describe('applyHeapGrowth', () => {
  afterEach(() => jest.restoreAllMocks());

  it("sets V8's heap growing factor to the configured percent, and leaves V8 alone at 0", () => {
    // The module object itself: boot.ts reads its function at call time.
    const set = jest
      .spyOn(require('node:v8') as typeof import('node:v8'), 'setFlagsFromString')
      .mockImplementation(() => undefined);
    applyHeapGrowth(0);
    expect(set).not.toHaveBeenCalled();
    applyHeapGrowth(50);
    expect(set).toHaveBeenCalledWith('--heap-growing-percent=50');
  });

  it('is a flag this V8 knows (an unknown one would be ignored with a warning)', () => {
    // `node --v8-options` lists every flag the running V8 accepts.
    const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
    expect(execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' })).toMatch(/--heap-growing-percent/);
  });
});
