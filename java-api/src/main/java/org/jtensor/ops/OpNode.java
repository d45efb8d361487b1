package org.jtensor.ops;

import java.util.Arrays;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.autograd.Edge;
import org.jtensor.autograd.GradMode;

/**
 * The node of one recorded op: its registry derivative, the tensors the derivative saves, and
 * each input's shape, dtype and device, to which the input's gradient is summed (broadcasting),
 * converted and moved (a gradient crosses back over to(Device) as PyTorch's ToCopyBackward). Named as PyTorch names it: "MulBackward0".
 */
final class OpNode extends GraphNode {
  private final String name;
  private final Gradient gradient;
  private final SavedTensor[] inputs;   // only those the derivative saves
  private final SavedTensor[] results;  // likewise
  private final double[] scalars;       // scalar operands by input index (NaN-free: only read where one was)
  private final boolean[] scalarIsLong;
  private final double[] params;
  private final Object args;             // the op family's NodeArgs record (or a geometry), read by the derivative
  private final SavedTensor[] savedArgs; // tensor arguments saved with the node (an index), null entries where none
  private final long[][] shapes;
  private final DType[] dtypes;
  private final Device[] devices;
  private final int numOutputs;
  private long[] outShape = {};
  private DType outDtype = DType.FLOAT32;
  private Device outDevice = Device.CPU;

  OpNode(String opName, Gradient gradient, Edge[] next, SavedTensor[] inputs, double[] scalars, boolean[] scalarIsLong,
         double[] params, Object args, SavedTensor[] savedArgs, long[][] shapes, DType[] dtypes, Device[] devices,
         int numOutputs) {
    super(next);
    this.name = pascal(opName) + "Backward0";
    this.gradient = gradient;
    this.inputs = inputs;
    this.results = new SavedTensor[numOutputs];
    this.scalars = scalars;
    this.scalarIsLong = scalarIsLong;
    this.params = params;
    this.args = args;
    this.savedArgs = savedArgs;
    this.shapes = shapes;
    this.dtypes = dtypes;
    this.devices = devices;
    this.numOutputs = numOutputs;
  }

  void saveResult(int k, SavedTensor t) {
    results[k] = t;
  }

  /** Output 0's shape, dtype and device: a missing gradient for it reads as zeros of these. */
  void outputMeta(long[] shape, DType dtype, Device device) {
    outShape = shape.clone();
    outDtype = dtype;
    outDevice = device;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  protected int numOutputs() {
    return numOutputs;
  }

  /** This node's derivative called as a function (by CopySlices), outside the engine's scheduling. */
  Tensor[] applyAsFunction(Tensor[] gradOutputs) {
    return apply(gradOutputs);
  }

  @Override
  protected Tensor[] apply(Tensor[] gradOutputs) {
    if (gradient == null) {
      throw new UnsupportedOperationException(name + ": the derivative for '" + name.substring(0, name.length() - 9)
          + "' is not implemented.");
    }
    boolean createGraph = GradMode.isEnabled();
    Tensor g0 = gradOutputs[0];
    Tensor zeros = null;
    if (g0 == null) {  // another output got a gradient, this one none: it counts as zeros
      g0 = zeros = Tensor.zeros(outShape, outDtype, outDevice);
    }
    Ctx c = new Ctx(gradOutputs, createGraph);
    Tensor[] raw = gradient.formula().apply(c, g0);
    Tensor[] out = new Tensor[shapes.length];
    for (int k = 0; k < out.length && k < raw.length; k++) {
      Tensor r = raw[k];
      if (r == null || !hasEdge(k)) continue;
      Tensor f = fit(r, shapes[k], dtypes[k], devices[k]);
      boolean shared = f == zeros || c.borrowed(f) || c.isArg(f);
      for (int j = 0; j < k; j++) shared |= out[j] == f;
      out[k] = shared ? Handles.same(f, "backward") : f;  // each gradient a handle of its own: the engine closes each once
    }
    return out;
  }

  /** g summed over broadcast dims to shape (sum_to_size), converted to dtype and moved to device. */
  static Tensor fit(Tensor g, long[] shape, DType dtype, Device device) {
    Tensor r = g;
    if (!Arrays.equals(r.shape(), shape)) r = r.sumToSize(shape);
    if (r.dtype() != dtype) r = r.to(dtype);
    if (!r.device().equals(device)) r = r.to(device);
    return r;
  }

  @Override
  protected void releaseVariables() {
    for (SavedTensor s : inputs) if (s != null) s.release();
    for (SavedTensor s : results) if (s != null) s.release();
    if (savedArgs != null) for (SavedTensor s : savedArgs) if (s != null) s.release();
  }

  private static String pascal(String op) {
    StringBuilder b = new StringBuilder(op.length());
    boolean up = true;
    for (char c : op.toCharArray()) {
      if (c == '_') {
        up = true;
        continue;
      }
      b.append(up ? Character.toUpperCase(c) : c);
      up = false;
    }
    return b.toString();
  }

  private final class Ctx implements Gradient.Context {
    private final Tensor[] grads;
    private final boolean createGraph;
    private final Tensor[] unpacked = new Tensor[inputs.length];
    private Tensor result;
    private Tensor[] argHandles;  // saved tensor arguments (an index), unpacked on first use

    Ctx(Tensor[] grads, boolean createGraph) {
      this.grads = grads;
      this.createGraph = createGraph;
    }

    boolean isArg(Tensor t) {
      if (argHandles != null) for (Tensor a : argHandles) if (a == t) return true;
      return false;
    }

    /** Whether t is a handle the formula got rather than made. */
    boolean borrowed(Tensor t) {
      for (Tensor g : grads) if (g == t) return true;
      for (Tensor u : unpacked) if (u == t) return true;
      return t == result;
    }

    @Override
    public Tensor input(int k) {
      if (unpacked[k] != null) return unpacked[k];
      if (inputs[k] != null) return unpacked[k] = inputs[k].unpack(OpNode.this, createGraph);
      if (scalarIsLong != null && k < scalarIsLong.length && scalarIsLong[k]) return unpacked[k] = Tensor.scalar((long) scalars[k]);
      if (scalars != null && k < scalars.length) return unpacked[k] = Tensor.scalar(scalars[k], DType.FLOAT64);  // a Python float: no rounding before the op
      throw new IllegalStateException(name + ": input " + k + " was not saved");
    }

    @Override
    public Tensor result() {
      if (result == null) {
        if (results[0] == null) throw new IllegalStateException(name + ": the output was not saved");
        result = results[0].unpack(OpNode.this, createGraph);
      }
      return result;
    }

    @Override
    public Tensor grad(int k) {
      return grads[k];
    }

    @Override
    public double param(int k) {
      return params[k];
    }

    @Override
    public double scalar(int k) {
      return scalars[k];
    }

    @Override
    public <A> A args(Class<A> type) {
      return type.cast(args);
    }

    @Override
    public Tensor savedArg(int k) {
      if (savedArgs == null || savedArgs[k] == null) return null;
      if (argHandles == null) argHandles = new Tensor[savedArgs.length];
      if (argHandles[k] == null) argHandles[k] = savedArgs[k].unpack(OpNode.this, false);
      return argHandles[k];
    }

    @Override
    public boolean needs(int k) {
      return hasEdge(k);
    }

    @Override
    public long[] inputShape(int k) {
      return shapes[k];
    }

    @Override
    public DType inputDtype(int k) {
      return dtypes[k];
    }
  }
}
