// The pages' own helpers that need no browser, run in Node: durations in a person's units, and which parts of a raw
// message a finding's character range marks.
import { describe, expect, it, vi } from 'vitest';

// plain browser modules without type declarations: imported by a computed name, so TypeScript does not ask for one
const load = (name: string) => import(`../../plugins/pages/web/${name}`);

describe('durations in a person\'s units', () => {
  it('uses the largest unit and the one below it', async () => {
    const { formatDuration, formatAgo } = await load('shared/duration.js');
    expect(formatDuration(450)).toBe('450 ms');
    expect(formatDuration(1_500)).toBe('1.5 s');
    expect(formatDuration(12_000)).toBe('12 s');
    expect(formatDuration(200_000)).toBe('3 min 20 s');
    expect(formatDuration(3_600_000)).toBe('1 h');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000 + 5_000)).toBe('3 d 4 h');
    expect(formatDuration(null)).toBe('–');
    expect(formatDuration(Number.NaN)).toBe('–');
    const now = Date.parse('2026-03-03T12:00:00Z');
    expect(formatAgo('2026-03-03T11:55:00Z', now)).toBe('5 min ago');
    expect(formatAgo('2026-03-03T11:59:58Z', now)).toBe('just now');
    expect(formatAgo(null, now)).toBe('never');
  });
});

describe('finding marks', () => {
  it('marks a part a range overlaps, and the part holding or touching an empty range', async () => {
    const { findingRanges, isMarked } = await load('shared/raw-marks.js');
    const ranges = findingRanges([
      { position: { start: 10, end: 14 } },
      { position: { start: 30, end: 30 } },
      { position: null },
    ]);
    expect(ranges).toEqual([
      [10, 14],
      [30, 30],
    ]);
    expect(isMarked(ranges, 12, 20)).toBe(true);
    expect(isMarked(ranges, 14, 20)).toBe(false);
    expect(isMarked(ranges, 0, 10)).toBe(false);
    // an absent field: the empty range at 30 marks the empty part [30, 30] and the part ending at it
    expect(isMarked(ranges, 30, 30)).toBe(true);
    expect(isMarked(ranges, 25, 30)).toBe(true);
    expect(isMarked(ranges, 31, 40)).toBe(false);
  });
});

describe('reading a paged list', () => {
  /** A fake list route of `total` numbered items, keyset-paged like the API; records the paths asked for. */
  function fakeList(total: number) {
    const asked: string[] = [];
    const fetch = async (path: string) => {
      asked.push(path);
      const query = new URL(path, 'http://pages.test').searchParams;
      const limit = Number(query.get('limit'));
      const from = query.get('cursor') ? Number(query.get('cursor')) : 0;
      const data = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, i) => from + i);
      const truncated = from + limit < total;
      return new Response(JSON.stringify({ success: true, data, page: { next: truncated ? String(from + limit) : null, truncated, limit } }));
    };
    return { asked, fetch };
  }

  it('follows page.next to the end, keeping the filters of the path', async () => {
    const { readPages, pagePath } = await load('shared/paging.js');
    const list = fakeList(25);
    vi.stubGlobal('fetch', list.fetch);
    try {
      const read = await readPages('/api/things?kind=a', { limit: 10 });
      expect(read.items).toEqual(Array.from({ length: 25 }, (_, i) => i));
      expect(read).toMatchObject({ next: null, cut: false });
      expect(list.asked).toEqual(['/api/things?kind=a&limit=10', '/api/things?kind=a&limit=10&cursor=10', '/api/things?kind=a&limit=10&cursor=20']);
      expect(pagePath('/api/things', 5, null)).toBe('/api/things?limit=5');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('stops at its bound of pages and says the list was cut', async () => {
    const { readPages } = await load('shared/paging.js');
    const list = fakeList(100);
    vi.stubGlobal('fetch', list.fetch);
    try {
      const read = await readPages('/api/things', { limit: 10, pages: 3 });
      expect(read.items).toHaveLength(30);
      expect(read).toMatchObject({ next: '30', cut: true });
      expect(list.asked).toHaveLength(3);
      const exact = await readPages('/api/things', { limit: 50, pages: 2 });
      expect(exact).toMatchObject({ next: null, cut: false });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
