package org.jtensor.access;

import org.jtensor.cuda.CudaStream;

/** The package-private members of org.jtensor.cuda's classes that the implementation uses (Note [Shared secrets]). */
public interface CudaAccess {
  /** CudaStream.hold: keeps the stream from being destroyed while op uses it; IllegalStateException once closed. */
  void hold(CudaStream stream, String op);

  /** CudaStream.unhold: ends a hold. */
  void unhold(CudaStream stream);
}
