package org.jtensor.nn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtensor.DType;
import org.jtensor.Device;
import org.jtensor.Tensor;
import org.jtensor.TensorScope;
import org.jtensor.autograd.GradMode;

/**
 * A layer or a model (torch.nn.Module): named parameters (leaves that require grad), buffers
 * (state that is not trained, such as running means) and submodules, a train/eval flag, and
 * {@link #forward}. The module owns its parameters and buffers: {@link #parameters()} hands out the
 * module's own handles (do not close them), {@link #close()} frees them all.
 *
 * <p>To extend it, import it by name ({@code import org.jtensor.nn.Module;}): {@code java.lang.Module}
 * has the same simple name, so with only {@code import org.jtensor.nn.*;} the name is ambiguous.
 */
public abstract class Module implements AutoCloseable {
  // package-private for ModuleWalk, which walks the tree; a null value is a name registered as None
  final Map<String, Tensor> parameters = new LinkedHashMap<>();
  final Map<String, Tensor> buffers = new LinkedHashMap<>();
  final Map<String, Module> children = new LinkedHashMap<>();
  // Buffers a state dict may lack (saved before they existed): loading leaves them as they are, as
  // PyTorch's BatchNorm does for num_batches_tracked in a version-1 state dict.
  private final java.util.Set<String> optionalOnLoad = new java.util.HashSet<>();
  // Buffers outside the state dict (register_buffer(..., persistent=False)), such as a cached mask.
  final java.util.Set<String> nonPersistent = new java.util.HashSet<>();
  private boolean training = true;
  private boolean closed;

  public abstract Tensor forward(Tensor input);

  /**
   * Registers t as a parameter: it becomes a leaf that requires grad, owned by this module (no scope
   * closes it). A null t takes the name and lists nothing, as PyTorch's register_parameter(name, None).
   */
  protected final Tensor registerParameter(String name, Tensor t) {
    return registerParameter(name, t, true);
  }

  /** nn.Parameter(t, requires_grad): a frozen parameter (false) is listed and saved but takes no gradient; it may be an integer tensor. */
  protected final Tensor registerParameter(String name, Tensor t, boolean requiresGrad) {
    checkName("parameter", name);
    if (t != null) {
      t.requiresGrad_(requiresGrad);  // before escaping: a refused (integer) tensor stays in its scope, not leaked
      TensorScope.escape(t);
    }
    parameters.put(name, t);
    return t;
  }

  /**
   * "weight" of weightShape and, when withBias, "bias" of weightShape[0], initialised as PyTorch's
   * Linear and Conv*d reset_parameters: kaiming_uniform(a = √5) (bound 1/√fanIn), bias U(±1/√fanIn);
   * returns {weight, bias or null}. Call it inside the constructor's abandon() guard.
   */
  protected final Tensor[] registerWeightAndBias(long[] weightShape, boolean withBias, org.jtensor.Generator g) {
    return registerWeightAndBias(weightShape, weightShape[0], withBias, g);
  }

  /** The same with a bias of biasLength (a transposed convolution's weight is [in, out/groups, ...]). */
  protected final Tensor[] registerWeightAndBias(long[] weightShape, long biasLength, boolean withBias, org.jtensor.Generator g) {
    Tensor weight = registerParameter("weight", Tensor.empty(weightShape, org.jtensor.DType.FLOAT32));
    Init.kaimingUniform_(weight, Math.sqrt(5), g);
    if (!withBias) return new Tensor[] {weight, null};
    Tensor bias = registerParameter("bias", Tensor.empty(new long[] {biasLength}, org.jtensor.DType.FLOAT32));
    long fanIn = Init.fanIn(weight);
    Init.uniform_(bias, fanIn > 0 ? 1 / Math.sqrt(fanIn) : 0, g);  // PyTorch's bound: 0 when fan_in is 0
    return new Tensor[] {weight, bias};
  }

  /** Registers t as a buffer owned by this module; a null t takes the name and lists nothing, as register_buffer(name, None). */
  protected final Tensor registerBuffer(String name, Tensor t) {
    return registerBuffer(name, t, true);
  }

  /**
   * register_buffer(name, t, persistent): a buffer that is not persistent is moved by {@link #to} and
   * listed by {@link #namedBuffers()}, but stays out of {@link #stateDict()}, and a state dict that
   * has it is refused as unexpected, as PyTorch's.
   */
  protected final Tensor registerBuffer(String name, Tensor t, boolean persistent) {
    checkName("buffer", name);
    if (t != null) TensorScope.escape(t);
    buffers.put(name, t);
    if (!persistent) nonPersistent.add(name);
    return t;
  }

  /** A buffer that a state dict may lack: loading one without it keeps the buffer's value and reports no missing key. */
  protected final Tensor registerOptionalBuffer(String name, Tensor t) {
    registerBuffer(name, t);
    optionalOnLoad.add(name);
    return t;
  }

  /** The keys a non-strict {@link #loadStateDict(Map, boolean)} skipped, as PyTorch's _IncompatibleKeys. */
  public record IncompatibleKeys(List<String> missingKeys, List<String> unexpectedKeys) {}

  protected final <M extends Module> M registerModule(String name, M m) {
    checkName("module", name);
    if (m == null) {  // would surface later as a NullPointerException from parameters(), stateDict(), train() or close()
      throw new IllegalArgumentException(opName() + "(): expected a Module for '" + name + "', got null");
    }
    children.put(name, m);
    return m;
  }

  /**
   * For a constructor that fails part-way (out of memory after its first parameter, say): no caller
   * will ever hold the module, so what it registered is closed here; the caller rethrows failure.
   * Use: {@code try { ...registers... } catch (RuntimeException | Error e) { abandon(e); throw e; }}
   */
  protected final void abandon(Throwable failure) {
    try {
      close();
    } catch (RuntimeException suppressed) {
      failure.addSuppressed(suppressed);
    }
  }

  /**
   * A closed module (or submodule) has freed its tensors: refused naming the method called and the
   * module, not an accessor ("detach(): tensor is closed") of one of its tensors.
   */
  private void checkOpen(String method) {
    String op = opName() + "." + method + "(): ";
    if (closed) throw new IllegalStateException(op + "the module is closed: close() freed its parameters and buffers");
    children.forEach((n, m) -> m.checkOpenBelow(op, n));
  }

  private void checkOpenBelow(String op, String path) {
    if (closed) throw new IllegalStateException(op + "its submodule '" + path + "' is closed: close() freed its parameters and buffers");
    children.forEach((n, m) -> m.checkOpenBelow(op, path + "." + n));
  }

  String opName() {
    return getClass().getSimpleName().isEmpty() ? getClass().getName() : getClass().getSimpleName();
  }

  /** PyTorch's add_module / register_parameter / register_buffer rules, in their words, naming the module being built. */
  private void checkName(String kind, String name) {
    String op = opName() + "(): ";
    if (name == null) throw new IllegalArgumentException(op + kind + " name should be a string. Got null");
    if (name.isEmpty()) throw new IllegalArgumentException(op + kind + " name can't be empty string \"\"");
    if (name.contains(".")) throw new IllegalArgumentException(op + kind + " name can't contain \".\", got: " + name);
    if (parameters.containsKey(name) || buffers.containsKey(name) || children.containsKey(name)) {
      throw new IllegalArgumentException(op + "attribute '" + name + "' already exists");
    }
  }

  /** Every parameter of this module and its submodules, in registration order (the module's own handles). */
  public final List<Tensor> parameters() {
    return new ArrayList<>(namedParameters().values());
  }

  /**
   * Parameters by dotted name ("0.weight", "fc.bias"), as named_parameters: a parameter registered in
   * two places (tied weights) once, under its first name, as PyTorch's remove_duplicate=True, so an
   * optimizer steps it once. stateDict() names it in both places, as PyTorch's state_dict().
   */
  public final Map<String, Tensor> namedParameters() {
    checkOpen("namedParameters");
    return ModuleWalk.firstOfEach(ModuleWalk.tensors(this, ModuleWalk.Kind.PARAMETERS));
  }

  /** Buffers by dotted name, persistent or not, a buffer reached twice (a submodule registered twice) once, as named_buffers. */
  public final Map<String, Tensor> namedBuffers() {
    checkOpen("namedBuffers");
    return ModuleWalk.firstOfEach(ModuleWalk.tensors(this, ModuleWalk.Kind.BUFFERS));
  }

  /** The values of {@link #namedBuffers()} (the module's own handles). */
  public final List<Tensor> buffers() {
    return new ArrayList<>(namedBuffers().values());
  }

  /** The direct submodules by name, one registered under two names once, under its first (named_children). */
  public final Map<String, Module> namedChildren() {
    return ModuleWalk.firstOfEach(new LinkedHashMap<>(children));
  }

  /** The values of {@link #namedChildren()}. */
  public final List<Module> children() {
    return new ArrayList<>(namedChildren().values());
  }

  /**
   * This module under "" and every submodule under its dotted path ("seq", "seq.0"), depth first in
   * registration order, each module once under its first path, as PyTorch's named_modules().
   */
  public final Map<String, Module> namedModules() {
    return ModuleWalk.namedModules(this);
  }

  /** The values of {@link #namedModules()}: this module first. */
  public final List<Module> modules() {
    return new ArrayList<>(namedModules().values());
  }

  /** Parameters and persistent buffers by dotted name, as new detached handles the caller owns (state_dict). */
  public final Map<String, Tensor> stateDict() {
    checkOpen("stateDict");
    Map<String, Tensor> out = ModuleWalk.tensors(this, ModuleWalk.Kind.STATE);
    out.replaceAll((n, t) -> t.detach());
    return out;
  }

  /** {@link #loadStateDict(Map, boolean)} with strict = true. */
  public final IncompatibleKeys loadStateDict(Map<String, Tensor> state) {
    return loadStateDict(state, true);
  }

  /**
   * Copies each entry into the parameter or buffer of that name (load_state_dict). Strict: a
   * missing or unexpected key is refused, in PyTorch's words; not strict: the keys both sides have
   * are loaded and the others returned. Either way a shape that differs, a read-only destination or
   * an entry overlapping its destination is refused, and nothing is copied unless everything can be.
   * A [1] entry loads into a 0-dim parameter or buffer, as PyTorch's.
   */
  public final IncompatibleKeys loadStateDict(Map<String, Tensor> state, boolean strict) {
    checkOpen("loadStateDict");
    Map<String, Tensor> own = ModuleWalk.tensors(this, ModuleWalk.Kind.STATE);
    return StateDictLoading.load(getClass().getSimpleName(), own, this::optionalAt, state, strict);
  }

  /** Whether the dotted key names a buffer its module registered as optional on load. */
  private boolean optionalAt(String key) {
    int dot = key.indexOf('.');
    if (dot < 0) return optionalOnLoad.contains(key);
    Module child = children.get(key.substring(0, dot));
    return child != null && child.optionalAt(key.substring(dot + 1));
  }

  /**
   * Calls fn on every submodule, depth first, then on this module (torch's module.apply, for custom
   * initialisation); returns this. As PyTorch's, it walks namedChildren(): a child registered twice is visited once.
   */
  public final Module apply(java.util.function.Consumer<Module> fn) {
    for (Module m : namedChildren().values()) m.apply(fn);
    fn.accept(this);
    return this;
  }

  public Module train() {
    return train(true);
  }

  public Module train(boolean mode) {
    training = mode;
    for (Module m : children.values()) m.train(mode);
    return this;
  }

  public Module eval() {
    return train(false);
  }

  public final boolean isTraining() {
    return training;
  }

  /** Sets requiresGrad on every parameter of this module and its submodules (requires_grad_, to freeze layers); returns this. */
  public Module requiresGrad_(boolean requiresGrad) {
    checkOpen("requiresGrad_");
    for (Tensor p : parameters()) p.requiresGrad_(requiresGrad);
    return this;
  }

  /**
   * Moves every parameter, buffer and gradient of this module and its submodules to device, in place
   * (torch's module.to(device)): the handles stay the same, so build the optimizer after moving, as in
   * PyTorch. {@code Device.META} drops the bytes and keeps shapes and dtypes.
   */
  public Module to(Device device) {
    checkOpen("to");
    try (GradMode.Scope off = GradMode.noGrad()) {
      ModuleWalk.moveTo(this, device);
    }
    return this;
  }

  /**
   * Casts every floating-point parameter, buffer and gradient of this module and its submodules to
   * dtype, in place (torch's module.to(dtype)): integer buffers such as BatchNorm's
   * num_batches_tracked keep theirs; the handles stay the same, and later gradients arrive in dtype.
   */
  public Module to(DType dtype) {
    checkOpen("to");
    if (dtype == null || !dtype.isFloatingPoint()) {  // PyTorch's words for module.to(torch.int64)
      throw new IllegalArgumentException(opName() + ".to(): nn.Module.to only accepts floating point or complex dtypes, but got desired dtype="
          + dtype);
    }
    try (GradMode.Scope off = GradMode.noGrad()) {
      ModuleWalk.castTo(this, dtype);
    }
    return this;
  }

  /** {@code to(device)} then {@code to(dtype)}: torch's module.to(device, dtype). */
  public Module to(Device device, DType dtype) {
    return to(device).to(dtype);
  }

  /** {@code to(DType.FLOAT16)}: torch's module.half(). */
  public Module half() {
    return to(DType.FLOAT16);
  }

  /** {@code to(DType.BFLOAT16)}: torch's module.bfloat16(). */
  public Module bfloat16() {
    return to(DType.BFLOAT16);
  }

  /** {@code to(DType.FLOAT32)}: torch's module.float() ({@code float} is a Java keyword). */
  public Module toFloat() {
    return to(DType.FLOAT32);
  }

  /** {@code to(DType.FLOAT64)}: torch's module.double(). */
  public Module toDouble() {
    return to(DType.FLOAT64);
  }

  /** {@code to(Device.cuda(0))}. */
  public Module cuda() {
    return to(Device.cuda(0));
  }

  /** {@code to(Device.CPU)}. */
  public Module cpu() {
    return to(Device.CPU);
  }

  /** Clears every parameter's gradient (sets it to none, as PyTorch's default set_to_none). */
  public final void zeroGrad() {
    checkOpen("zeroGrad");
    for (Tensor p : parameters()) p.setGrad(null);
  }

  /**
   * The module's own arguments as PyTorch's extra_repr() writes them ("in_features=4, out_features=2,
   * bias=True"), for {@link #toString()}; empty by default. Override it in a module of your own.
   */
  protected String extraRepr() {
    return "";
  }

  /** The name print(model) shows when not the class's simple name (Softmax.log's LogSoftmax), else null. */
  String reprAs;

  String reprName() {
    return reprAs != null ? reprAs : opName();
  }

  /** print(model) as PyTorch's: the class's simple name, extraRepr(), then each child as "(name): ..." indented. */
  @Override
  public String toString() {
    return ModuleRepr.of(this);
  }

  /** Frees the parameters, buffers and submodules; idempotent. */
  @Override
  public void close() {
    if (closed) return;
    closed = true;
    for (Tensor t : parameters.values()) if (t != null) t.close();
    for (Tensor t : buffers.values()) if (t != null) t.close();
    for (Module m : children.values()) m.close();
  }
}
