package org.jtensor.access;

import org.jtensor.Tensor;
import org.jtensor.cuda.CudaStream;

/**
 * Note [Shared secrets] The API's classes keep what the implementation needs of them
 * package-private (Tensor.wrap, Tensor.implOf, Generator.reserve, ...): a public member of an
 * exported class would be API. The op implementations are another package (org.jtensor.ops), so
 * they reach those members through accessor objects that the API's packages register here when
 * their classes initialize, as the JDK's jdk.internal.access.SharedSecrets does for java.lang:
 * Tensor's static initializer registers org.jtensor's {@link ApiAccess}, CudaStream's registers
 * org.jtensor.cuda's {@link CudaAccess}. This package is not exported, so on the module path only
 * jtensor's own packages can ask, and each accessor is set once. A getter asked before the
 * registering class has initialized initializes it first. The API's packages name this package
 * only to register, so PackageCyclesTest leaves the edges into it out of the package graph.
 */
public final class SharedSecrets {
  private SharedSecrets() {}

  private static volatile ApiAccess api;
  private static volatile CudaAccess cuda;

  /** Called once, by Tensor's static initializer. */
  public static void setApiAccess(ApiAccess access) {
    api = once(api, access);
  }

  /** Called once, by CudaStream's static initializer. */
  public static void setCudaAccess(CudaAccess access) {
    cuda = once(cuda, access);
  }

  public static ApiAccess api() {
    if (api == null) initialize(Tensor.class);
    return api;
  }

  public static CudaAccess cuda() {
    if (cuda == null) initialize(CudaStream.class);
    return cuda;
  }

  private static <T> T once(T current, T access) {
    if (access == null || current != null) throw new IllegalStateException("an accessor is registered once, by its API class");
    return access;
  }

  private static void initialize(Class<?> c) {
    try {
      Class.forName(c.getName(), true, c.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }
}
