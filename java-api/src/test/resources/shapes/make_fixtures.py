"""Writes two fixtures with PyTorch 2.13. fixtures.pt, for ShapeOpsTest: the NumPy-named shape ops
(broadcast_to, broadcast_tensors, moveaxis, ravel, fliplr, flipud, rot90), the stacks (hstack,
vstack, dstack, column_stack), the splits (hsplit, vsplit, dsplit) and atleast_1d/2d/3d. diag.pt,
for DiagonalOpsTest: diag (both directions), diag_embed, diagflat, trace, tril_indices,
triu_indices and meshgrid ("ij" and "xy"). index.pt, for IndexWriteOpsTest: take_along_dim,
select_scatter, slice_scatter, diagonal_scatter, index_fill(_), index_copy(_), masked_scatter(_)
and index_put(_) (with and without accumulate). joins.pt, for ShapeOpsTest: block_diag,
cartesian_prod, argwhere, unravel_index, combinations. In each, case i keeps its inputs
"<i>.x<k>", outputs "<i>.out<j>" and, where differentiable, the upstream "<i>.up<j>" and the inputs'
gradients "<i>.grad<k>" (the floating ones; int64 indices and bool masks have none) of sum_j (out_j * up_j).sum(). "cases" lists [op, args]. Inputs are float64
unless the case names a dtype; the 2-D and larger ones are transposed views (non-contiguous).
Regenerate: python3 make_fixtures.py (a virtualenv with torch)."""
import torch

torch.manual_seed(43)
out, cases = {}, []


def save(name):
    out["cases"] = list(cases)
    torch.save(dict(out), name)
    out.clear()
    cases.clear()


def make(shape, dtype):
    if dtype == torch.bool:
        return torch.randint(0, 2, shape).to(dtype)
    if not dtype.is_floating_point:
        return torch.randint(-5, 5, shape).to(dtype)
    if len(shape) < 2:
        return torch.randn(shape, dtype=dtype)
    return torch.randn(shape[::-1], dtype=dtype).permute(*reversed(range(len(shape))))


def add(op, args, fn, *shapes, dtypes=None):
    dtypes = dtypes or [torch.float64] * len(shapes)
    xs = [s.clone() if isinstance(s, torch.Tensor) else make(s, d) for s, d in zip(shapes, dtypes)]
    grad = any(x.is_floating_point() for x in xs) and all(x.is_floating_point() or x.dtype in (torch.int64, torch.bool) for x in xs)
    xs = [x.detach().requires_grad_(grad and x.is_floating_point()) for x in xs]
    ys = fn(*xs)
    ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    i = len(cases)
    for k, x in enumerate(xs):
        out[f"{i}.x{k}"] = x.detach()
    loss = 0
    for j, y in enumerate(ys):
        out[f"{i}.out{j}"] = y.detach().clone()
        if grad and y.requires_grad:
            up = torch.randn(y.shape, dtype=y.dtype)
            out[f"{i}.up{j}"] = up
            loss = loss + (y * up).sum()
    if grad and torch.is_tensor(loss):  # argwhere's int64 output: no gradient
        fs = [x for x in xs if x.requires_grad]
        gs = iter(torch.autograd.grad(loss, fs, allow_unused=True))
        for k, x in enumerate(xs):
            if x.requires_grad:
                g = next(gs)
                out[f"{i}.grad{k}"] = g if g is not None else torch.zeros_like(x)
    cases.append([op, args])


add("broadcastTo", [2, 3, 4], lambda x: torch.broadcast_to(x, (2, 3, 4)), (3, 1))
add("broadcastTo", [4, -1, 3], lambda x: torch.broadcast_to(x, (4, -1, 3)), (2, 3))
add("broadcastTensors", [], torch.broadcast_tensors, (2, 1, 3), (4, 1), ())
add("broadcastTensors", [], torch.broadcast_tensors, (3,), (3, 1), dtypes=[torch.float32, torch.int64])
add("moveaxis", [0, 2, -1, 0], lambda x: torch.moveaxis(x, [0, 2], [-1, 0]), (2, 3, 4))
add("moveaxis", [1, -1], lambda x: torch.moveaxis(x, 1, -1), (2, 3, 4))
add("ravel", [], torch.ravel, (3, 4))
add("ravel", [], torch.ravel, ())
add("fliplr", [], torch.fliplr, (2, 3, 4))
add("flipud", [], torch.flipud, (3, 2))
for k in (-1, 0, 1, 2, 3, 5, -6):
    add("rot90", [k, 0, 1], lambda x, k=k: torch.rot90(x, k, [0, 1]), (3, 4))
add("rot90", [1, 2, 0], lambda x: torch.rot90(x, 1, [2, 0]), (2, 3, 4))
add("rot90", [3, -1, 1], lambda x: torch.rot90(x, 3, [-1, 1]), (2, 3, 4))
add("hstack", [], lambda *t: torch.hstack(t), (2,), (3,))
add("hstack", [], lambda *t: torch.hstack(t), (2, 3), (2, 1))
add("hstack", [], lambda *t: torch.hstack(t), (), ())
add("hstack", [], lambda *t: torch.hstack(t), (2,), (1,), dtypes=[torch.int64, torch.float32])
add("vstack", [], lambda *t: torch.vstack(t), (3,), (2, 3))
add("vstack", [], lambda *t: torch.vstack(t), (), ())
add("dstack", [], lambda *t: torch.dstack(t), (2, 3), (2, 3, 2))
add("dstack", [], lambda *t: torch.dstack(t), (3,), (3,))
add("columnStack", [], lambda *t: torch.column_stack(t), (3,), (3, 2))
add("columnStack", [], lambda *t: torch.column_stack(t), (), ())
add("columnStack", [], lambda *t: torch.column_stack(t), (2, 2, 2), (2, 1, 2))
add("hsplitN", [3], lambda x: torch.hsplit(x, 3), (4, 6))
add("hsplitN", [2], lambda x: torch.hsplit(x, 2), (6,))
add("hsplitAt", [1, 4], lambda x: torch.hsplit(x, [1, 4]), (4, 6))
add("hsplitAt", [3, 1, -1, 9], lambda x: torch.hsplit(x, [3, 1, -1, 9]), (2, 5))
add("vsplitN", [2], lambda x: torch.vsplit(x, 2), (4, 3))
add("vsplitAt", [1, -1], lambda x: torch.vsplit(x, [1, -1]), (4, 3))
add("dsplitN", [2], lambda x: torch.dsplit(x, 2), (2, 2, 4))
add("dsplitAt", [3], lambda x: torch.dsplit(x, [3]), (2, 2, 4))
for n in (1, 2, 3):
    fn = {1: torch.atleast_1d, 2: torch.atleast_2d, 3: torch.atleast_3d}[n]
    for s in [(), (3,), (2, 3), (2, 1, 3)]:
        add(f"atleast{n}d", [], fn, s)
save("fixtures.pt")

for k in (0, 2, -1):
    add("diag", [k], lambda x, k=k: torch.diag(x, k), (4,))
for k in (0, 1, -2, 5, -7):
    add("diag", [k], lambda x, k=k: torch.diag(x, k), (3, 4))
add("diag", [2], lambda x: torch.diag(x, 2), (0,))
add("diag", [1], lambda x: torch.diag(x, 1), (3,), dtypes=[torch.int64])
add("diag", [0], torch.diag, (3,), dtypes=[torch.bool])
add("diag", [-1], lambda x: torch.diag(x, -1), (3, 3), dtypes=[torch.int32])
for a in ([0, -2, -1], [1, -1, 0], [-1, 0, 2], [2, 1, 0]):
    add("diagEmbed", a, lambda x, a=a: torch.diag_embed(x, *a), (2, 3))
add("diagEmbed", [0, -2, -1], torch.diag_embed, (3,))
add("diagEmbed", [1, 0, 3], lambda x: torch.diag_embed(x, 1, 0, 3), (2, 3, 2))
for k, s in ((-1, (2, 2)), (0, ()), (1, (3,)), (2, (2, 1, 2))):
    add("diagflat", [k], lambda x, k=k: torch.diagflat(x, k), s)
add("trace", [], torch.trace, (3, 4))
add("trace", [], torch.trace, (4, 3))
add("trace", [], torch.trace, (0, 3))
add("trace", [], torch.trace, (3, 3), dtypes=[torch.int32])
add("trace", [], torch.trace, (2, 2), dtypes=[torch.uint8])
for r, c, o in ((3, 4, 0), (3, 4, 1), (4, 3, -1), (4, 3, -2), (3, 3, 5), (3, 3, -5), (0, 4, 0), (4, 0, 0), (1, 1, 0), (5, 2, 3)):
    add("trilIndices", [r, c, o], lambda r=r, c=c, o=o: torch.tril_indices(r, c, o))
    add("triuIndices", [r, c, o], lambda r=r, c=c, o=o: torch.triu_indices(r, c, o))
add("trilIndices", [4, 3, 1, 32], lambda: torch.tril_indices(4, 3, 1, dtype=torch.int32))
add("triuIndices", [4, 3, -1, 32], lambda: torch.triu_indices(4, 3, -1, dtype=torch.int32))
add("meshgridIJ", [], lambda *t: torch.meshgrid(*t, indexing="ij"), (2,), (3,), ())
add("meshgridIJ", [], lambda *t: torch.meshgrid(*t, indexing="ij"), (4,))
add("meshgridXY", [], lambda *t: torch.meshgrid(*t, indexing="xy"), (2,), (3,), (4,))
add("meshgridXY", [], lambda *t: torch.meshgrid(*t, indexing="xy"), (2,), ())
add("meshgridXY", [], lambda *t: torch.meshgrid(*t, indexing="xy"), (3,))
add("meshgridXY", [], lambda *t: torch.meshgrid(*t, indexing="xy"), (2,), (0,), dtypes=[torch.int64, torch.int64])
save("diag.pt")

L = lambda *v: torch.tensor(v, dtype=torch.int64)
add("takeAlongDim", [1], lambda x, i: torch.take_along_dim(x, i, 1), (3, 4), L([0, 3], [2, 2], [1, 0]))
add("takeAlongDim", [0], lambda x, i: torch.take_along_dim(x, i, 0), (3, 4), L([2, 0, 1, 1]).view(1, 4))
add("takeAlongDim", [-1], lambda x, i: torch.take_along_dim(x, i, -1), (3, 1, 4), L([3, 0], [1, 1]).view(1, 2, 2))
add("takeAlongDim", [], lambda x, i: torch.take_along_dim(x, i), torch.randn(3, 4, dtype=torch.float64), L([11, 0], [5, 5]))  # PyTorch views it flat: contiguous
add("takeAlongDim", [0], lambda x, i: torch.take_along_dim(x, i, 0), (3,), L(2, 2, 0, 1), dtypes=[torch.int64, torch.int64])
add("selectScatter", [0, 1], lambda x, s: torch.select_scatter(x, s, 0, 1), (3, 4), (4,))
add("selectScatter", [-1, -1], lambda x, s: torch.select_scatter(x, s, -1, -1), (2, 3, 4), (2, 3))
add("selectScatter", [1, 0], lambda x, s: torch.select_scatter(x, s, 1, 0), (3, 4), (3,), dtypes=[torch.float64, torch.float32])
add("sliceScatter", [1, 0, 4, 2], lambda x, s: torch.slice_scatter(x, s, 1, 0, 4, 2), (3, 4), (3, 2))
add("sliceScatter", [0, -2, 100, 1], lambda x, s: torch.slice_scatter(x, s, 0, -2, 100, 1), (3, 4), (2, 4))
add("sliceScatter", [0, 5, 100, 1], lambda x, s: torch.slice_scatter(x, s, 0, 5, 100, 1), (3, 4), (0, 4))
add("diagonalScatter", [0, 0, 1], lambda x, s: torch.diagonal_scatter(x, s), (3, 4), (3,))
add("diagonalScatter", [2, 0, 1], lambda x, s: torch.diagonal_scatter(x, s, 2), (3, 4), (2,))
add("diagonalScatter", [-1, 2, 0], lambda x, s: torch.diagonal_scatter(x, s, -1, 2, 0), (2, 3, 4), (3, 2))
add("indexFill", [1, -7], lambda x, i: x.index_fill(1, i, -7.0), (3, 4), L(0, 2))
add("indexFill", [0, 5], lambda x, i: x.index_fill(0, i, 5.0), (3, 4), L(-1))
add("indexFill", [0, 3], lambda x, i: x.index_fill(0, i, 3.0), (), L(0))
add("indexFill", [-1, 2], lambda x, i: x.index_fill(-1, i, 2.0), (3, 4), L(3, 3, -4), dtypes=[torch.int64, torch.int64])
add("indexFill_", [1, -7], lambda x, i: x.clone().index_fill_(1, i, -7.0), (3, 4), L(1))
add("indexFillT", [1], lambda x, i, v: x.index_fill(1, i, v), (2, 3, 4), torch.tensor(2), ())
add("indexFillT_", [0], lambda x, i, v: x.clone().index_fill_(0, i, v), (2, 3), L(1, 0), ())
add("indexCopy", [1], lambda x, i, s: x.index_copy(1, i, s), (3, 4), L(0, 2), (3, 2))
add("indexCopy", [0], lambda x, i, s: x.index_copy(0, i, s), (4,), L(1), ())
add("indexCopy", [-1], lambda x, i, s: x.index_copy(-1, i, s), (2, 3, 4), L(3, 0), (2, 3, 2))
add("indexCopy", [1], lambda x, i, s: x.index_copy(1, i, s), (3, 4), torch.tensor(1), (3, 1))
add("indexCopy", [0], lambda x, i, s: x.index_copy(0, i, s), (), L(0), ())
add("indexCopy_", [1], lambda x, i, s: x.clone().index_copy_(1, i, s), (3, 4), L(2, 0), (3, 2))
B = lambda *v: torch.tensor(v, dtype=torch.bool)
add("maskedScatter", [], lambda x, m, s: x.masked_scatter(m, s), (2, 3), B([True, False, True], [False, True, False]), (6,))
add("maskedScatter", [], lambda x, m, s: x.masked_scatter(m, s), (2, 3), B(True, False, True), (2, 3))
add("maskedScatter", [], lambda x, m, s: x.masked_scatter(m, s), (3,), B([True, True, False], [False, True, True]), (7,))
add("maskedScatter", [], lambda x, m, s: x.masked_scatter(m, s), (2, 2), B(False, False), (0,))
add("maskedScatter_", [], lambda x, m, s: x.clone().masked_scatter_(m, s), (4,), B(True, False, True, True), (3,))
add("indexPut", [0], lambda x, i, j, v: x.index_put((i, j), v), (3, 4), L(0, 2), L(1, -1), (2,))
add("indexPut", [1], lambda x, i, j, v: x.index_put((i, j), v, accumulate=True), (3, 4), L(0, 2, 0), L(1, 1, 1), (3,))
add("indexPut", [1], lambda x, i, v: x.index_put((i,), v, accumulate=True), (3, 4), L([0, -1], [0, 0]), (4,))
add("indexPut", [1], lambda x, m, v: x.index_put((m,), v, accumulate=True), (3, 4), B(True, False, True), (2, 4))
add("indexPut", [0], lambda x, m, v: x.index_put((m,), v), (2, 3), B([True, False, True], [False, False, True]), ())
add("indexPut_", [1], lambda x, i, v: x.clone().index_put_((i,), v, accumulate=True), (4,), L(3, 3, 0, 3), (4,))
add("indexPut_", [0], lambda x, i, j, v: x.clone().index_put_((i, j), v), (2, 3, 2), L(1), L(2, 0), (2, 1))
save("index.pt")

add("blockDiag", [], lambda *t: torch.block_diag(*t), (), (2,), (2, 3))
add("blockDiag", [], lambda *t: torch.block_diag(*t), (0, 2), (2, 0), (1, 1))
add("blockDiag", [], lambda *t: torch.block_diag(*t), (2,), (1,), dtypes=[torch.bool, torch.int32])
add("blockDiag", [], lambda *t: torch.block_diag(*t), (2, 2), (3,), dtypes=[torch.float64, torch.int64])
add("cartesianProd", [], lambda *t: torch.cartesian_prod(*t), (2,), (3,))
add("cartesianProd", [], lambda *t: torch.cartesian_prod(*t), (2,), (1,), (2,))
add("cartesianProd", [], lambda *t: torch.cartesian_prod(*t), (3,))
add("argwhere", [], torch.argwhere, L([0, 1, 0], [2, 0, -1]))
add("argwhere", [], torch.argwhere, torch.tensor(1.5))
add("argwhere", [], torch.argwhere, torch.zeros(2, 0))
add("unravelIndex", [3, 2], lambda i: torch.unravel_index(i, (3, 2)), L(4, 1, -1, 6, -7))
add("unravelIndex", [2, 3, 4], lambda i: torch.unravel_index(i, (2, 3, 4)), torch.tensor(17))
add("unravelIndex", [5, 1], lambda i: torch.unravel_index(i, (5, 1)), torch.tensor([[3, 0], [4, 2]], dtype=torch.int32))
add("unravelIndex", [], lambda i: torch.unravel_index(i, ()), L(0))
for r, w in ((2, False), (2, True), (3, False), (3, True), (1, False), (4, False)):
    add("combinations", [r, int(w)], lambda x, r=r, w=w: torch.combinations(x, r, w), (4,))
add("combinations", [2, 0], lambda x: torch.combinations(x, 2), (0,))
add("combinations", [2, 1], lambda x: torch.combinations(x, 2, True), (3,), dtypes=[torch.int64])
save("joins.pt")
