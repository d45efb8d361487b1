package org.jtensor.ops;

import org.jtensor.autograd.GradMode;
import org.jtensor.core.TensorImpl;

/**
 * PyTorch's CreationMeta: why a recorded in-place op must refuse a view. A view made under no_grad
 * (its base's later history would skip the op) or one of several views one op returned (split,
 * chunk, unbind: their nodes cannot be rebased). Views of such a view inherit it (TensorImpl.viewOf).
 */
record ViewCreation(String fn, int output) {
  static final ViewCreation NO_GRAD = new ViewCreation(null, -1);
  static final ViewCreation INFERENCE_MODE = new ViewCreation(null, -2);  // a view of a normal tensor made in inference mode

  /** How a view made with nothing recorded is marked: under no_grad, or in inference mode. */
  static ViewCreation unrecorded() {
    return org.jtensor.core.InferenceMode.isEnabled() ? INFERENCE_MODE : NO_GRAD;
  }

  /** Marks each of views, the outputs of fn (PyTorch's node name, e.g. "Split"); under no_grad they are marked NO_GRAD already. */
  static java.util.List<TensorImpl> multiOutput(String fn, java.util.List<TensorImpl> views) {
    if (!GradMode.isEnabled()) return views;
    for (int i = 0; i < views.size(); i++) views.get(i).setViewCreation(new ViewCreation(fn, i));
    return views;
  }

  /** Refuses self, a view about to be changed in place by op name with its change recorded, as PyTorch's handle_view_on_rebase. */
  static void checkInPlace(String name, TensorImpl self) {
    if (self.base() != null && self.viewCreation() instanceof ViewCreation c) throw c.refusal(name, self, false);
  }

  /** Refuses to use self (op name) once its base or another view of it was changed in place: PyTorch regenerates no such view. */
  static void checkStale(String name, TensorImpl self) {
    if (self.viewCreation() instanceof ViewCreation c) throw c.refusal(name, self, true);
  }

  private IllegalStateException refusal(String name, TensorImpl self, boolean indirect) {
    AutogradMeta m = AutogradMeta.peek(self);
    String what = indirect ? "its base or another view of its base has been" : "is being";
    String msg = fn != null && m != null && m.gradFn != null
        ? "Output " + output + " of " + fn + " is a view and " + what + " modified inplace."
        : this == INFERENCE_MODE ? "A view was created in inference mode and " + what + " modified inplace in normal mode."
        : "A view was created in no_grad mode and " + what + " modified inplace with grad mode enabled.";
    msg += fn != null
        ? " This view is the output of a function that returns multiple views. Such functions do not allow the output views "
            + "to be modified inplace. You should replace the inplace operation by an out-of-place one."
        : " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both "
            + "the view and the inplace either both inside the " + (this == INFERENCE_MODE ? "inference_mode" : "no_grad")
            + " block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked).";
    return new IllegalStateException(name + "(): " + msg);
  }
}
