import { createHash } from 'node:crypto';
import { RecentDigests } from './recent-digests';

const digest = (text: string) => createHash('sha256').update(text).digest('binary');

describe('RecentDigests', () => {
  it('says a digest is new the first time and seen the next', () => {
    const recent = new RecentDigests(100);
    expect(recent.seenBefore(digest('a'))).toBe(false);
    expect(recent.seenBefore(digest('a'))).toBe(true);
    expect(recent.seenBefore(digest('b'))).toBe(false);
  });

  it('remembers at least the last window / 2 distinct digests, and forgets those older than the window', () => {
    const recent = new RecentDigests(1000);
    recent.seenBefore(digest('old'));
    for (let index = 0; index < 1000; index++) recent.seenBefore(digest(`filler-${index}`));
    expect(recent.seenBefore(digest('old'))).toBe(false);

    const recentOnes = Array.from({ length: 500 }, (_, index) => digest(`recent-${index}`));
    for (const one of recentOnes) recent.seenBefore(one);
    expect(recentOnes.every((one) => recent.seenBefore(one))).toBe(true);
  });

  it('almost never mistakes a new digest for a seen one', () => {
    const recent = new RecentDigests(10_000);
    for (let index = 0; index < 4_999; index++) recent.seenBefore(digest(`seen-${index}`));
    let falsePositives = 0;
    for (let index = 0; index < 20_000; index++) if (recent.seenBefore(digest(`new-${index}`))) falsePositives++;
    // Each generation full: 0.03% expected, 6 of 20,000.
    expect(falsePositives).toBeLessThan(20);
  });
});
