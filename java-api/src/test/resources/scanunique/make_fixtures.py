"""Writes fixtures.pt for ScanUniqueOpsTest with PyTorch 2.13 (CPU): cummax/cummin (ties, NaN,
every dtype, a transposed input, their gradients) and logcumsumexp (-inf rows, +inf, NaN, large
values, float16/bfloat16/float32/float64, its gradient) for an upstream "up".
Regenerate: python3 make_fixtures.py."""
import torch

torch.manual_seed(11)
nan, inf = float("nan"), float("inf")
out = {}

# cummax/cummin: ties (the last index of equals), NaN (a later NaN takes the index), along both dims
x = torch.tensor([[1., 3., 3., 2., nan, 5., nan, 1.],
                  [2., 2., 1., 1., 4., 4., 0., 4.],
                  [-0., 0., -1., -1., 7., nan, 7., 8.]], dtype=torch.float64)
out["x"] = x
for op in ("cummax", "cummin"):
    for d in (0, 1):
        v, i = getattr(torch, op)(x, d)
        out[f"{op}.dim{d}.values"], out[f"{op}.dim{d}.indices"] = v, i
    v, i = getattr(torch, op)(x.t(), 0)  # a transposed (non-contiguous) input
    out[f"{op}.t.values"], out[f"{op}.t.indices"] = v, i

# every dtype PyTorch's CPU cummax/cummin accept
ints = torch.tensor([[3, 1, 1, 4, 0, 4, 2, 5], [0, 0, 1, 1, 0, 1, 0, 0]])
for name, dt in (("bool", torch.bool), ("uint8", torch.uint8), ("int8", torch.int8), ("int16", torch.int16),
                 ("int32", torch.int32), ("int64", torch.int64)):
    src = ints.to(dt) if dt != torch.int8 else (ints - 2).to(dt)
    out[f"dt.{name}"] = src
    for op in ("cummax", "cummin"):
        v, i = getattr(torch, op)(src, 1)
        out[f"dt.{name}.{op}.values"], out[f"dt.{name}.{op}.indices"] = v, i
for name, dt in (("float16", torch.float16), ("bfloat16", torch.bfloat16), ("float32", torch.float32)):
    src = x.to(dt)
    out[f"dt.{name}"] = src
    for op in ("cummax", "cummin"):
        v, i = getattr(torch, op)(src, 1)
        out[f"dt.{name}.{op}.values"], out[f"dt.{name}.{op}.indices"] = v, i


def grad_of(fn, inp):
    a = inp.clone().requires_grad_(True)
    y = fn(a)
    up = torch.randn(y.shape, dtype=y.dtype)
    (y * up).sum().backward()
    return y.detach(), up, a.grad


ties = torch.tensor([[1., 3., 3., 2., 5.], [4., 4., 4., 1., 0.]], dtype=torch.float64)
out["ties"] = ties
for op in ("cummax", "cummin"):
    out[f"{op}.grad.out"], out[f"{op}.grad.up"], out[f"{op}.grad.grad"] = grad_of(lambda a: getattr(torch, op)(a, 1).values, ties)

# logcumsumexp: -inf rows, +inf, NaN, large values
lx = torch.tensor([[-inf, -inf, 1., inf, 2., nan, 3.],
                   [-inf, -inf, -inf, -inf, -inf, -inf, -inf],
                   [1000., 1000., -1000., 0.5, inf, inf, -inf],
                   [0.1, -2.5, 3.0, 1e-3, -0.7, 2.2, 0.0]], dtype=torch.float64)
out["lx"] = lx
for d in (0, 1):
    out[f"logcumsumexp.dim{d}"] = torch.logcumsumexp(lx, d)
for name, dt in (("float16", torch.float16), ("bfloat16", torch.bfloat16), ("float32", torch.float32)):
    out[f"lx.{name}"] = lx.to(dt)
    out[f"logcumsumexp.{name}"] = torch.logcumsumexp(lx.to(dt), 1)
out["logcumsumexp.t"] = torch.logcumsumexp(lx.t(), 0)
lg = torch.randn(3, 5, dtype=torch.float64)
out["lg"] = lg
out["logcumsumexp.grad.out"], out["logcumsumexp.grad.up"], out["logcumsumexp.grad.grad"] = grad_of(lambda a: torch.logcumsumexp(a, 1), lg)
lgi = torch.tensor([[-inf, 0.5, -1.0, 2.0], [3.0, -inf, 1.0, 0.0]], dtype=torch.float64)
out["lgi"] = lgi
out["logcumsumexp.gradinf.out"], out["logcumsumexp.gradinf.up"], out["logcumsumexp.gradinf.grad"] = grad_of(lambda a: torch.logcumsumexp(a, 1), lgi)

# cumsum/cumprod with dtype: the input converted first, then scanned (16-bit floats accumulate in float)
cases = {"i32_f16": (torch.tensor([1, 2, 3], dtype=torch.int32), torch.float16),
         "f32_f16": (torch.tensor([2049., 1., 1.]), torch.float16),
         "i8_i8": (torch.tensor([100, 100, 27], dtype=torch.int8), torch.int8),
         "i64_i8": (torch.tensor([100, 100, 3]), torch.int8),
         "f32_i32": (torch.tensor([1.5, 2.5, -0.5]), torch.int32),
         "b_f64": (torch.tensor([True, False, True]), torch.float64),
         "f64_f32": (torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64), torch.float32)}
for k, (src, dt) in cases.items():
    out[f"cd.{k}"] = src
    out[f"cd.{k}.cumsum"] = torch.cumsum(src, 0, dtype=dt)
    out[f"cd.{k}.cumprod"] = torch.cumprod(src, 0, dtype=dt)
for k, src in (("bool", torch.tensor([True, True, False])), ("int32", torch.tensor([7, -2, 5], dtype=torch.int32))):
    out[f"cdef.{k}"] = src
    out[f"cdef.{k}.cumsum"], out[f"cdef.{k}.cumprod"] = torch.cumsum(src, 0), torch.cumprod(src, 0)
for op in ("cumsum", "cumprod"):
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    getattr(torch, op)(a, 0, dtype=torch.float64).backward(torch.tensor([1., 2., 3.], dtype=torch.float64))
    out[f"cd.grad.{op}"] = a.grad

# unique over a dim (slices compared whole, lexicographic order) and unique_consecutive
m = torch.tensor([[1, 2, 0], [0, 5, 1], [1, 2, 0], [1, 1, 7], [0, 5, 1], [0, 5, 1], [1, 2, -3]])
b3 = torch.tensor([[[1., 0.], [2., 2.]], [[1., 0.], [2., 2.]], [[-0., 3.], [1., 1.]], [[0., 3.], [1., 1.]]])
bo = torch.tensor([[True, False], [False, True], [True, False], [True, True]])
fl = torch.tensor([3., 3., 1., float("nan"), float("nan"), 2., 2., 2., 3.])
out["u.m"], out["u.b3"], out["u.bo"], out["u.fl"] = m, b3, bo, fl
for name, src, dims in (("m", m, (0, 1, -1)), ("b3", b3, (0, 1, 2)), ("bo", bo, (0, 1))):
    for d in dims:
        for sorted_ in (True, False):
            v, i, c = torch.unique(src, sorted=sorted_, return_inverse=True, return_counts=True, dim=d)
            k = f"unique.{name}.{d}.{sorted_}"
            out[k + ".values"], out[k + ".inverse"], out[k + ".counts"] = v, i, c
        v, i, c = torch.unique_consecutive(src, return_inverse=True, return_counts=True, dim=d)
        k = f"consec.{name}.{d}"
        out[k + ".values"], out[k + ".inverse"], out[k + ".counts"] = v, i, c
    v, i, c = torch.unique_consecutive(src, return_inverse=True, return_counts=True)
    out[f"consec.{name}.None.values"], out[f"consec.{name}.None.inverse"], out[f"consec.{name}.None.counts"] = v, i, c
v, i, c = torch.unique_consecutive(fl, return_inverse=True, return_counts=True)
out["consec.fl.None.values"], out["consec.fl.None.inverse"], out["consec.fl.None.counts"] = v, i, c
v, i, c = torch.unique(fl, sorted=False, return_inverse=True, return_counts=True)
out["unique.fl.None.False.values"], out["unique.fl.None.False.inverse"], out["unique.fl.None.False.counts"] = v, i, c

torch.save(out, "fixtures.pt")
