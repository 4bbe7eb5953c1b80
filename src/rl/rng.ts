// Seeded randomness: the same seed gives the same weights and the same samples on every machine.

/** A deterministic pseudo-random source (mulberry32) with uniform and normal draws. */
export class Rng {
  private state: number;
  private spareNormal: number | null = null;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal draw (Box–Muller, both halves used). */
  normal(): number {
    if (this.spareNormal !== null) {
      const z = this.spareNormal;
      this.spareNormal = null;
      return z;
    }
    const u = Math.max(this.uniform(), 1e-12);
    const v = this.uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
}

/**
 * A seed for one named draw of a seeded run, e.g. `deriveSeed(runSeed, episode, request)`: the
 * same parts give the same seed whatever order the draws happen in, so concurrent work can each
 * have its own stream. An integer in [0, 2^31) (any API that takes an int32 seed accepts it).
 */
export function deriveSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    // Each part through one mulberry32-style mix, folded into the running hash.
    h = Math.imul(h ^ (p >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return (h >>> 0) & 0x7fffffff;
}
