package moduleprobe;

import org.jtensor.Device;
import org.jtensor.Tensor;

/**
 * Run by ModuleBoundaryTest in a child JVM with jtensor on the module path and this class in the
 * unnamed module: the API works there (JavaCPP finds the natives of both modules) and the
 * internals cannot be called. Prints OK, or throws.
 */
public final class ModuleProbe {
  private ModuleProbe() {}

  public static void main(String[] args) throws Exception {
    Module api = Tensor.class.getModule();
    require(api.isNamed() && api.getName().equals("org.jtensor"), "Tensor is in the named module org.jtensor: " + api);
    try (Tensor x = Tensor.arange(6).reshape(2, 3); Tensor y = x.matmul(x.t()); Tensor s = y.sum()) {
      require(s.item() == 50 + 2 * 14 + 5, "arange(6).reshape(2,3) @ its transpose sums to 83, got " + s.item());
    }
    for (String internal : new String[] {"org.jtensor.ops", "org.jtensor.access", "org.jtensor.core", "org.jtensor.dispatch",
        "org.jtensor.dispatch.plan"}) {
      require(!api.isExported(internal), internal + " is not exported");
    }
    require(api.isExported("org.jtensor.cuda"), "org.jtensor.cuda is exported");
    refused("org.jtensor.dispatch.Dispatcher", "backend", Device.class, Device.CPU);
    refused("org.jtensor.access.SharedSecrets", "api", null, null);
    refused("org.jtensor.bindings.JtNative", "jt_dtype_count", null, null);
    // args[0]: whether the platform jar holds libjtensor_cuda.so (read on the class path by the test)
    boolean cudaBuilt = args.length > 0 && args[0].equals("cuda-built");
    String reason = org.jtensor.cuda.Cuda.isAvailable() ? "" : org.jtensor.cuda.Cuda.unavailableReason();
    require(!cudaBuilt || !reason.contains("built without nvcc"),
        "a CUDA build on the module path is not reported as built without nvcc: " + reason);
    System.out.println("OK");
  }

  /** A public static method of a class in a package the caller may not use: reflection must refuse it. */
  private static void refused(String cls, String method, Class<?> param, Object arg) throws Exception {
    Class<?> c = Class.forName(cls);
    try {
      if (param == null) c.getMethod(method).invoke(null);
      else c.getMethod(method, param).invoke(null, arg);
    } catch (IllegalAccessException expected) {
      return;
    }
    throw new AssertionError(cls + "." + method + " was callable from outside the module");
  }

  private static void require(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }
}
