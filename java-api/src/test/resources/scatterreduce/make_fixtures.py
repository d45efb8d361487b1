"""Writes fixtures.pt for ScatterReduceTest with PyTorch 2.13: Tensor.scatter_reduce over every
reduce ("sum", "prod", "mean", "amax", "amin") and include_self, along dims 1 and -1 of 3-D tensors
(and 0 for float64 and float32), the index smaller than self outside dim and (but for float64,
whose gradient PyTorch computes only then) than src, with repeated positions. "cases" lists
[name, reduce, include_self, dim]; each case has "<name>.self", ".index", ".src", ".out", and for
float64 ".up" (the upstream gradient of (out * up).sum()), ".grad_self", ".grad_src". float64
cases hold zeros (prod's single and double zero gradient cases) and ties (amax and amin share the
gradient), the other float dtypes NaN; the integer cases wrap as PyTorch's.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch

torch.manual_seed(43)
out, cases = {}, []
nan = float("nan")
REDUCES = ["sum", "prod", "mean", "amax", "amin"]


def add(name, self, dim, index, src, reduce, include_self, grad):
    s = self.clone().requires_grad_(grad)
    r = src.clone().requires_grad_(grad)
    y = s.scatter_reduce(dim, index, r, reduce, include_self=include_self)
    out[f"{name}.self"], out[f"{name}.index"], out[f"{name}.src"], out[f"{name}.out"] = self, index, src, y.detach()
    if grad:
        up = torch.randn(y.shape, dtype=y.dtype)
        (y * up).sum().backward()
        out[f"{name}.up"], out[f"{name}.grad_self"], out[f"{name}.grad_src"] = up, s.grad, r.grad
    cases.append([name, reduce, include_self, dim])


def values(dtype, shape):
    if dtype == torch.bool:
        return torch.rand(shape) < 0.5
    if dtype.is_floating_point:
        # few distinct values: ties for amax/amin, zeros for prod
        return (torch.randint(-3, 4, shape).to(torch.float64) * 0.5).to(dtype)
    lo = 0 if dtype == torch.uint8 else -100
    return torch.randint(lo, 100, shape).to(dtype)


for dtype, tag in [(torch.float64, "f64"), (torch.float32, "f32"), (torch.float16, "f16"), (torch.bfloat16, "bf16"),
                   (torch.int8, "i8"), (torch.uint8, "u8"), (torch.int16, "i16"), (torch.int32, "i32"), (torch.int64, "i64"),
                   (torch.bool, "bool")]:
    for dim in ([0, 1, -1] if dtype in (torch.float64, torch.float32) else [1, -1]):
        self = values(dtype, (3, 4, 5))
        ishape = [2, 3, 4]
        ishape[dim] = 4  # longer than self along dim: repeated positions
        index = torch.randint(0, self.shape[dim], ishape)
        # src larger than index (PyTorch's backward refuses that: its float64 src is index's shape)
        src = values(dtype, ishape if dtype == torch.float64 else (4, 5, 6))
        if dtype.is_floating_point and dtype != torch.float64:
            src[0, 0, 0] = nan
            self[1, 1, 1] = nan
        for reduce in REDUCES:
            if dtype == torch.bool and reduce == "mean":
                continue
            for inc in [True, False]:
                add(f"{reduce}_{int(inc)}_d{dim}_{tag}", self, dim, index, src, reduce, inc, dtype == torch.float64)

# 0-dim, int32 index, empty index
for reduce in REDUCES:
    add(f"{reduce}_scalar", torch.tensor(2.5, dtype=torch.float64), 0, torch.tensor(0), torch.tensor(-1.5, dtype=torch.float64),
        reduce, True, True)
    add(f"{reduce}_int32_index", torch.arange(6, dtype=torch.float64).view(2, 3), 1, torch.tensor([[2, 2], [0, 1]], dtype=torch.int32),
        torch.tensor([[4.0, -1.0], [3.0, 3.0]], dtype=torch.float64), reduce, False, True)
# prod with zeros where self and src meet: none, one, two at a slot
add("prod_zeros", torch.tensor([0.0, 2.0, 3.0, 0.0], dtype=torch.float64), 0, torch.tensor([0, 1, 1, 2, 2, 2, 3]),
    torch.tensor([4.0, 0.0, 5.0, 0.0, 0.0, 2.0, 3.0], dtype=torch.float64), "prod", True, True)
add("prod_zeros_excl", torch.tensor([0.0, 2.0, 3.0, 0.0], dtype=torch.float64), 0, torch.tensor([0, 1, 1, 2, 2, 2, 3]),
    torch.tensor([4.0, 0.0, 5.0, 0.0, 0.0, 2.0, 3.0], dtype=torch.float64), "prod", False, True)
# int8 sums, products and means that wrap
for reduce in ["sum", "prod", "mean"]:
    add(f"{reduce}_wrap_i8", torch.tensor([127, 1, -128], dtype=torch.int8), 0, torch.tensor([0, 0, 2, 2]),
        torch.tensor([100, 100, -1, 90], dtype=torch.int8), reduce, True, False)
# integer mean floors toward -inf
add("mean_floor_i64", torch.tensor([-7, 2, 3]), 0, torch.tensor([0, 0]), torch.tensor([0, 2]), "mean", True, False)
# -0.0 and 0.0 tie: self's kept
add("amax_signed_zero", torch.tensor([-0.0, 0.0]), 0, torch.tensor([0, 1]), torch.tensor([0.0, -0.0]), "amax", True, False)
add("amin_signed_zero", torch.tensor([-0.0, 0.0]), 0, torch.tensor([0, 1]), torch.tensor([0.0, -0.0]), "amin", True, False)
out["cases"] = cases
torch.save(out, "fixtures.pt")
print(len(cases), "cases")
