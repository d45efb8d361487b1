package org.jtensor;

/**
 * A seeded random source: Philox4x32-10, counter-based, so element i of a draw depends only on
 * (seed, offset + i) and never on thread count or chunking. The generator is only that state:
 * each draw reserves the blocks it consumes, and the device's kernel computes the values.
 */
public final class Generator {
  private static final Generator DEFAULT = new Generator(67280421310721L);  // PyTorch's default seed
  private long seed;
  private long offset;  // blocks of 4 words consumed so far

  public Generator(long seed) {
    setSeed(seed);
  }

  /** The generator that factories use when none is given (torch.default_generator). */
  public static Generator defaultGenerator() {
    return DEFAULT;
  }

  /** Seeds the default generator (torch.manual_seed) and returns it. */
  public static Generator manualSeed(long seed) {
    return DEFAULT.setSeed(seed);
  }

  /** Re-seeds this generator (torch.Generator.manual_seed); its draws start over. */
  public synchronized Generator setSeed(long newSeed) {
    seed = newSeed;
    offset = 0;
    return this;
  }

  /**
   * The whole state, {seed, offset} (torch.Generator.get_state): saved with a checkpoint and given
   * back to {@link #setState}, the draws continue exactly where they were.
   */
  public synchronized long[] getState() {
    return new long[] {seed, offset};
  }

  public synchronized Generator setState(long[] state) {
    if (state == null || state.length != 2 || state[1] < 0) {
      throw new IllegalArgumentException("setState(): expected {seed, offset} with a non-negative offset, got "
          + java.util.Arrays.toString(state));
    }
    seed = state[0];
    offset = state[1];
    return this;
  }

  /**
   * Re-seeds this generator from the operating system's entropy (torch.Generator.seed) and returns
   * the seed, which {@link #setSeed} takes back to replay what follows; for the default generator,
   * {@code Generator.defaultGenerator().seed()} is torch.seed().
   */
  public long seed() {
    long fresh = ENTROPY.nextLong();
    synchronized (this) {
      setSeed(fresh);
    }
    return fresh;
  }

  private static final java.security.SecureRandom ENTROPY = new java.security.SecureRandom();

  /** The seed this generator was last seeded with (torch.Generator.initial_seed). */
  public synchronized long initialSeed() {
    return seed;
  }

  /** Reserves n blocks of 4 random words; returns the first block's counter. */
  synchronized long reserve(long blocks) {
    long start = offset;
    if (blocks > Long.MAX_VALUE - start) {  // wrapped, getState() would give an offset setState() refuses
      throw new IllegalStateException("Generator: a draw of " + blocks + " blocks from offset " + start
          + " passes the largest offset, " + Long.MAX_VALUE + "; setState() a smaller one");
    }
    offset += blocks;
    return start;
  }
}
