// About 0.03% false positives per generation (k = 7 probes of 20 bits per digest).
const BITS_PER_DIGEST = 20;
const PROBES = 7;

/**
 * Whether a SHA-256 digest was seen among roughly the last `window` distinct ones: two Bloom-filter
 * generations of `window / 2` digests each (rarely a false positive, below), kept in typed arrays so that
 * remembering a digest allocates nothing on the garbage-collected heap.
 */
export class RecentDigests {
  private readonly bits: number;
  private current: Uint8Array;
  private previous: Uint8Array;
  private addedToCurrent = 0;

  constructor(private readonly window: number) {
    this.bits = Math.max(64, Math.ceil((window / 2) * BITS_PER_DIGEST));
    this.current = new Uint8Array(Math.ceil(this.bits / 8));
    this.previous = new Uint8Array(this.current.length);
  }

  /** Records `digest` (at least 28 bytes, one character per byte) and says whether it had been seen before. */
  seenBefore(digest: string): boolean {
    if (this.contains(this.current, digest)) return true;
    const seen = this.contains(this.previous, digest);
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = this.bitOf(digest, probe);
      this.current[bit >>> 3] |= 1 << (bit & 7);
    }
    if (++this.addedToCurrent >= this.window / 2) this.rotate();
    return seen;
  }

  private contains(filter: Uint8Array, digest: string): boolean {
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = this.bitOf(digest, probe);
      if ((filter[bit >>> 3] & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  }

  private bitOf(digest: string, probe: number): number {
    const at = probe * 4;
    const word = digest.charCodeAt(at) | (digest.charCodeAt(at + 1) << 8) | (digest.charCodeAt(at + 2) << 16) | (digest.charCodeAt(at + 3) << 24);
    return (word >>> 0) % this.bits;
  }

  private rotate(): void {
    [this.previous, this.current] = [this.current, this.previous];
    this.current.fill(0);
    this.addedToCurrent = 0;
  }
}
