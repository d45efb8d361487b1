package org.jtensor.ops;

import org.jtensor.dispatch.plan.NormGroups;

/**
 * What an op's graph node keeps besides tensors, one record per op family (PyTorch's generated
 * nodes keep these as typed fields: SumBackward1's dim and keepdim). The op makes one where it
 * records; its derivative reads it with {@code c.args(Type.class)}. Tensors an op saves with its
 * node (an index, sort's positions, norm's statistics) are not in these: they go through
 * Recorder.begin's saved tensors, so that each keeps its version check and is released with the
 * node (Gradient.Context.savedArg). Ops whose geometry is already a value pass that instead
 * (Windows, ConvShape, AttentionShape).
 */
final class NodeArgs {
  private NodeArgs() {}

  /** A reduction: the dims it reduced (over the input's), whether they were kept, the factor on the sum (mean's 1/n, else 1). */
  record Reduced(boolean[] dims, boolean keepdim, double divisor) {}

  /** An op along one dim, wrapped: scans, softmax, sort, indexSelect, gather, scatter, scatterAdd, indexAdd_. */
  record Along(int dim) {}

  /** scatterReduce: the dim, the reduction and whether self took part. */
  record ScatterReduce(int dim, ScatterReduceOps.Reduce reduce, boolean includeSelf) {}

  /** cat: the dim, and each input's size along it (0 for a skipped empty 1-D input). */
  record Cat(int dim, long[] sizes) {}

  record Transpose(int dim0, int dim1) {}

  record Permute(int[] dims) {}

  /** A view that picks storage positions: the input's strides and offset, then the view's. */
  record Strided(long[] inStrides, long inOffset, long[] outStrides, long outOffset) {}

  /** Batch, layer or group norm: the grouping, whether the statistics were given (fixed), eps, whether a weight took part. */
  record Norm(NormGroups groups, boolean fixed, double eps, boolean hasWeight) {}
}
