import { batchesOf } from './folder-sync';

describe('folder sync batches', () => {
  const file = (n: number, size: number) => ({ relative: `page-${n}.html`, size, mtimeMs: 0 });
  const MB = 1024 * 1024;

  it('cuts batches at 100 files, and earlier at 8 MB of files: a large file is not held with 99 others', () => {
    const files = [file(0, 5 * MB), file(1, 5 * MB), ...Array.from({ length: 150 }, (_, i) => file(i + 2, 1024))];
    const batches = batchesOf(files);
    expect(batches.map((b) => b.files.length)).toEqual([1, 100, 51]);
    expect(batches.map((b) => b.bytes)).toEqual([5 * MB, 5 * MB + 99 * 1024, 51 * 1024]);
    // Every file once, in order.
    expect(batches.flatMap((b) => b.files)).toEqual(files);
  });

  it('a file larger than a batch is a batch of its own', () => {
    const batches = batchesOf([file(0, 1024), file(1, 20 * MB), file(2, 1024)]);
    expect(batches.map((b) => b.files.map((f) => f.relative))).toEqual([
      ['page-0.html'],
      ['page-1.html'],
      ['page-2.html'],
    ]);
  });

  it('no files, no batches', () => {
    expect(batchesOf([])).toEqual([]);
  });
});
