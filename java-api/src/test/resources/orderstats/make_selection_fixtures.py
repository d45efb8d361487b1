"""Writes selection.pt for OrderStatisticsOpsTest with PyTorch 2.13 (CPU): kthvalue, nanmedian,
mode and msort on tie-heavy inputs with NaN (every k of a long row, both dims, keepdim, a
transposed input, 0-dim), per dtype, and the gradients for an upstream "up"; searchsorted (1-D
and per-row boundaries, left and right, int32, a sorter, promotion, NaN and infinities, scalars,
5000 values) and bucketize.
Regenerate: python3 make_selection_fixtures.py."""
import torch

torch.manual_seed(13)
out = {}
nan = float("nan")


def put(name, r):
    out[name + ".values"], out[name + ".indices"] = r.values, r.indices


def grad_of(name, fn, inp):
    a = inp.clone().requires_grad_(True)
    y = fn(a)
    up = torch.randn(y.shape, dtype=y.dtype)
    (y * up).sum().backward()
    out[name + ".out"], out[name + ".up"], out[name + ".grad"] = y.detach(), up, a.grad


# ties and NaN: small integers, a fifth of them NaN, and one all-NaN row
ties = torch.randint(0, 4, (6, 40)).double()
ties[torch.rand(ties.shape) < 0.2] = nan
ties[2] = nan
out["ties"] = ties
for k in (1, 2, 7, 20, 33, 40):
    put(f"kth_k{k}", torch.kthvalue(ties, k, 1))
put("kth_dim0_keep", torch.kthvalue(ties, 4, 0, keepdim=True))
put("kth_t", torch.kthvalue(ties.t(), 3, 0))  # a transposed (strided) input
put("kth_scalar", torch.kthvalue(torch.tensor(2.5, dtype=torch.float64), 1))
clean = torch.randint(0, 9, (3, 7))
out["clean"] = clean
for dt in ("float32", "float64", "int64", "float16", "bfloat16"):
    put(f"kth_{dt}", torch.kthvalue(clean.to(getattr(torch, dt)), 3, 1))
    put(f"mode_{dt}", torch.mode(clean.to(getattr(torch, dt)), 1))
    put(f"nanmedian_{dt}", torch.nanmedian(clean.to(getattr(torch, dt)), 1))
    out[f"nanmedian_all_{dt}"] = torch.nanmedian(clean.to(getattr(torch, dt)))
put("mode_bool", torch.mode(clean > 4, 1))

put("nanmedian_dim1", torch.nanmedian(ties, 1))
put("nanmedian_dim0_keep", torch.nanmedian(ties, 0, keepdim=True))
out["nanmedian_all"] = torch.nanmedian(ties)
out["nanmedian_all_nan"] = torch.nanmedian(torch.full((3,), nan, dtype=torch.float64))
put("mode_dim1", torch.mode(ties, 1))
put("mode_dim0_keep", torch.mode(ties, 0, keepdim=True))
put("mode_t", torch.mode(ties.t(), 0))
out["msort"] = torch.msort(ties[:, :5])

smooth = torch.randn(4, 6, dtype=torch.float64)
out["smooth"] = smooth
grad_of("kth_grad", lambda a: torch.kthvalue(a, 3, 1).values, ties)
grad_of("mode_grad", lambda a: torch.mode(a, 0).values, ties)
grad_of("nanmedian_grad", lambda a: torch.nanmedian(a, 1).values, ties)
grad_of("nanmedian_all_grad", lambda a: torch.nanmedian(a), torch.tensor([2., nan, 2., 1., 2.], dtype=torch.float64))
grad_of("msort_grad", lambda a: torch.msort(a), smooth)

inf = float("inf")
seq = torch.tensor([-inf, 1., 3., 3., 5., 7., 7., 7., inf, nan], dtype=torch.float64)
vals = torch.tensor([[-inf, 0., 1., 3., 4.], [7., 8., inf, nan, -1.]], dtype=torch.float64)
out["ss_seq"], out["ss_vals"] = seq, vals
out["ss_left"] = torch.searchsorted(seq, vals)
out["ss_right"] = torch.searchsorted(seq, vals, right=True)
out["ss_side_int32"] = torch.searchsorted(seq, vals, side="right", out_int32=True)
rows = torch.randint(0, 6, (2, 3, 6)).double().sort(-1).values
rvals = torch.randint(-1, 7, (2, 3, 4)).double()
out["ss_rows"], out["ss_rvals"] = rows, rvals
out["ss_rows_left"] = torch.searchsorted(rows, rvals)
out["ss_rows_right"] = torch.searchsorted(rows, rvals, right=True)
unsorted = torch.randint(0, 9, (2, 5)).double()
sorter = unsorted.argsort(-1)
svals = torch.randint(-1, 10, (2, 3)).double()
out["ss_unsorted"], out["ss_sorter"], out["ss_svals"] = unsorted, sorter, svals
out["ss_sorter_right"] = torch.searchsorted(unsorted, svals, right=True, sorter=sorter)
out["ss_sorter_1d"] = torch.searchsorted(unsorted[0], svals, sorter=sorter[0])
for dt in ("float32", "float64", "int64", "float16", "bfloat16"):
    out[f"ss_{dt}"] = torch.searchsorted(rows.to(getattr(torch, dt)), (rvals + 0.5).to(getattr(torch, dt)))
out["ss_promote"] = torch.searchsorted(rows.long(), rvals + 0.5)  # int64 boundaries, float64 values
half = torch.tensor([1., 2., 3.], dtype=torch.float16)
out["ss_half"] = half
out["ss_half_0dim"] = torch.searchsorted(half, torch.tensor(2.0009765625, dtype=torch.float64))  # float16 wins: 2.0
out["ss_half_1d"] = torch.searchsorted(half, torch.tensor([2.0009765625], dtype=torch.float64))  # float64 wins
out["ss_scalar_float"] = torch.searchsorted(torch.tensor([1, 2, 3]), 2.5)
out["ss_scalar_long"] = torch.searchsorted(seq, 3, right=True)
big_seq = torch.randn(1000).sort().values
big_vals = torch.randn(5000)
out["ss_big_seq"], out["ss_big_vals"], out["ss_big"] = big_seq, big_vals, torch.searchsorted(big_seq, big_vals)
out["bucketize"] = torch.bucketize(rvals, seq)
out["bucketize_right_int32"] = torch.bucketize(rvals, seq, right=True, out_int32=True)
put("kth_offset", torch.kthvalue(ties[1:, 3:23], 5, 1))  # a view with a storage offset
put("mode_offset", torch.mode(ties[1:, 3:23], 1))
out["ss_offset"] = torch.searchsorted(seq[1:8], vals.t()[1:])  # offset boundaries, strided values
grad_of("nanmedian_all_nan_grad", lambda a: torch.nanmedian(a), torch.full((2, 2), nan, dtype=torch.float64))
torch.save(out, "selection.pt")
