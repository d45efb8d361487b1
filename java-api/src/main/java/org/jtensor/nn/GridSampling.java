package org.jtensor.nn;

import java.util.Arrays;
import java.util.List;
import org.jtensor.DType;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.core.ScalarTypes;
import org.jtensor.dispatch.plan.GridSamplePacker.Sampling;
import org.jtensor.ops.GridSampleOps;

/**
 * torch.nn.functional.affine_grid and grid_sample (spatial transformers, warping). affineGrid is
 * a composite (the base grid of normalized coordinates times θᵀ, so differentiable in θ);
 * gridSample checks the user's arguments in PyTorch's words and runs the native kernel
 * (GridSampleOps): 4-D input bilinear, nearest or bicubic, 5-D trilinear ("bilinear") or nearest,
 * with zeros, border or reflection padding.
 * float16 and bfloat16 are sampled in float32 and rounded once at the end.
 */
final class GridSampling {
  private GridSampling() {}

  private static final List<String> MODES = List.of("bilinear", "nearest", "bicubic");
  private static final List<String> PADDINGS = List.of("zeros", "border", "reflection");

  static Tensor affineGrid(Tensor theta, long[] size, boolean alignCorners) {
    String op = "affineGrid";
    if (theta == null || size == null) throw new IllegalArgumentException(op + "(): theta and size must not be null");
    if (!theta.dtype().isFloatingPoint()) {
      throw new IllegalArgumentException(op + "(): Expected theta to have floating point type, but got " + theta.dtype());
    }
    int spatial = size.length - 2;
    if (spatial != 2 && spatial != 3) {
      throw new IllegalArgumentException(op + "(): affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
          + "respectively. Got size " + Arrays.toString(size) + ".");
    }
    long rows = spatial, cols = spatial + 1;
    long[] ts = theta.shape();
    if (ts.length != 3 || ts[1] != rows || ts[2] != cols) {
      throw new IllegalArgumentException(op + "(): Expected a batch of " + spatial + "D affine matrices of shape Nx" + rows + "x" + cols
          + " for size " + Arrays.toString(size) + ". Got " + Arrays.toString(ts) + ".");
    }
    for (long s : size) {
      if (s <= 0) throw new IllegalArgumentException(op + "(): Expected non-zero, positive output size. Got " + Arrays.toString(size));
    }
    if (ts[0] != size[0]) {
      throw new IllegalArgumentException(op + "(): Expected theta's batch " + ts[0] + " to equal size[0] = " + size[0]
          + " (PyTorch: Expected size for first two dimensions of batch2 tensor to be: [" + size[0] + ", " + cols + "] but got: ["
          + ts[0] + ", " + cols + "].)");
    }
    long points = 1;
    for (int k = 2; k < size.length; k++) points = Math.multiplyExact(points, size[k]);
    try (TensorScope s = TensorScope.open()) {
      // base [points, spatial + 1]: x (fastest, along the last dim), y, (z), 1, as ATen's base grid
      long[] shape = Arrays.copyOfRange(size, 2, size.length);
      Tensor[] axes = new Tensor[spatial + 1];
      for (int k = 0; k < spatial; k++) {
        int dim = size.length - 1 - k;  // x runs along the last dim of size, y the one before, z the first
        long[] view = new long[spatial];
        Arrays.fill(view, 1);
        view[spatial - 1 - k] = size[dim];
        axes[k] = linspaceFromNegOne(size[dim], alignCorners, theta).reshape(view).expand(shape);
      }
      axes[spatial] = Tensor.ones(shape, theta.dtype(), theta.device());
      Tensor base = Tensor.stack(Arrays.asList(axes), -1).reshape(1, points, cols);
      long[] out = new long[spatial + 2];
      out[0] = size[0];
      System.arraycopy(shape, 0, out, 1, spatial);
      out[spatial + 1] = spatial;
      return s.keep(base.matmul(theta.transpose(1, 2)).reshape(out));
    }
  }

  /** ATen's linspace_from_neg_one: 0 for one step; else −1..1, scaled by (n − 1)/n without alignCorners. */
  private static Tensor linspaceFromNegOne(long n, boolean alignCorners, Tensor like) {
    if (n <= 1) return Tensor.zeros(new long[] {1}, like.dtype(), like.device());
    Tensor r = Tensor.linspace(-1, 1, n, like.dtype()).to(like.device());
    return alignCorners ? r : r.mul((double) (n - 1)).div((double) n);
  }

  static Tensor gridSample(Tensor input, Tensor grid, String mode, String paddingMode, boolean alignCorners) {
    String op = "gridSample";
    if (input == null || grid == null) throw new IllegalArgumentException(op + "(): input and grid must not be null");
    int m = MODES.indexOf(mode), p = PADDINGS.indexOf(paddingMode);
    if (m < 0) throw new IllegalArgumentException(op + "(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '" + mode + "'");
    if (p < 0) {
      throw new IllegalArgumentException(op + "(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: '"
          + paddingMode + "'");
    }
    long[] in = input.shape(), g = grid.shape();
    String sizes = "input with sizes " + Arrays.toString(in) + " and grid with sizes " + Arrays.toString(g);
    if (!input.device().equals(grid.device())) {
      throw new IllegalArgumentException(op + "(): expected input and grid to be on same device, but input is on " + input.device()
          + " and grid is on " + grid.device());
    }
    if (input.dtype() != grid.dtype()) {
      throw new IllegalArgumentException(op + "(): " + ScalarTypes.expected(input.dtype(), grid.dtype()) + " (input " + input.dtype()
          + ", grid " + grid.dtype() + ")");
    }
    if (in.length != g.length) {
      throw new IllegalArgumentException(op + "(): expected " + in.length + "D input and grid with same number of dimensions, but got " + sizes);
    }
    if (in.length != 4 && in.length != 5) {
      throw new IllegalArgumentException(op + "(): expected 4D or 5D input and grid with same number of dimensions, but got " + sizes);
    }
    if (in[0] != g[0]) throw new IllegalArgumentException(op + "(): expected grid and input to have same batch size, but got " + sizes);
    if (g[g.length - 1] != in.length - 2) {
      throw new IllegalArgumentException(op + "(): expected grid to have size " + (in.length - 2) + " in last dimension, but got grid with sizes "
          + Arrays.toString(g));
    }
    for (int d = 2; d < in.length; d++) {
      if (in[d] == 0) {
        throw new IllegalArgumentException(op + "(): expected input to have non-empty spatial dimensions, but input has sizes "
            + Arrays.toString(in) + " with dimension " + d + " being empty");
      }
    }
    if (in.length == 5 && m == 2) throw new IllegalArgumentException(op + "(): bicubic interpolation only supports 4D input");
    if (!input.dtype().isFloatingPoint()) {
      throw ScalarTypes.notImplemented(op, in.length == 4 ? "grid_sampler_2d_cpu_kernel_impl" : "grid_sampler3d_cpu", input.dtype());
    }
    GridSampleOps.refuseCuda(op, input.device());
    Sampling s = new Sampling(m, p, alignCorners, in, Arrays.copyOfRange(g, 1, g.length - 1));
    DType t = input.dtype();
    if (t == DType.FLOAT32 || t == DType.FLOAT64) return GridSampleOps.gridSample(op, input, grid, s);
    try (TensorScope scope = TensorScope.open()) {
      Tensor r = GridSampleOps.gridSample(op, input.to(DType.FLOAT32), grid.to(DType.FLOAT32), s);
      return scope.keep(r.to(t));
    }
  }
}
