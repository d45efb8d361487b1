package org.jtensor.examples;

import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Index;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.memory.Memory;

/** A tour of the tensor model: views over one storage, copies, dtypes, and where the memory goes. */
public final class Quickstart {
  public static void main(String[] args) {
    try (TensorScope scope = TensorScope.open()) {
      Tensor x = Tensor.arange(24).reshape(2, 3, 4);
      System.out.println("x = " + x);
      Tensor xt = x.transpose(0, 2);
      System.out.printf("x.transpose(0, 2): shape %s stride %s contiguous=%b, shares x's storage: %b%n",
          java.util.Arrays.toString(xt.shape()), java.util.Arrays.toString(xt.stride()), xt.isContiguous(), xt.isAliasOf(x));
      Tensor row = x.get(Index.at(1), Index.slice(null, null, 2L));
      System.out.println("x[1, ::2] = " + row);
      row.fill_(-1L);  // a view: writes land in x
      System.out.println("after x[1, ::2].fill_(-1): x = " + x);
      Tensor picked = x.get(Index.all(), Index.of(Tensor.fromArray(new long[] {2, 0})));
      System.out.println("x[:, [2, 0]] (a copy) = " + picked);
      Tensor h = x.to(DType.FLOAT16);
      System.out.println("as float16: " + h);
      Map<String, Long> stats = Memory.memoryStats(Device.CPU);
      System.out.printf("allocated %d bytes in %d blocks; reserved %d bytes%n", stats.get("allocated_bytes.all.current"),
          stats.get("allocation.all.current"), stats.get("reserved_bytes.all.current"));
    }
    System.out.printf("after the scope: allocated %d bytes%n", Memory.memoryAllocated(Device.CPU));
  }
}
