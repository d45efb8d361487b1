"""Writes fixtures.pt for ProductsTest with PyTorch 2.13: kron, tensordot, inner, vdot, mv, addmv,
addr, addbmm, linalg.multi_dot, chain_matmul, cross (linalg.cross and torch.cross's default dim)
and diff over float64 (with the gradients of (out * up).sum()), float32, int64, bool, 0-dim, empty
and broadcast inputs. Each case "<name>" holds "<name>.in0", ".in1", ... (its tensors), ".out",
and for float64 ".up" and ".grad0", ".grad1", ...; "cases" lists the names; ProductsTest maps each
name to the call with the same scalar arguments as below.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from golden_cases import randn as r, recorder  # noqa: E402

torch.manual_seed(44)
out, cases = {}, []
f64 = torch.float64
add = recorder(out, cases)


def i(*shape):
    return torch.randint(-5, 6, tuple(shape))


nan = float("nan")
add("kron", torch.kron, r(2, 3), r(3, 2))
add("kron_ranks", torch.kron, r(2, 1, 3), r(2, 2))
add("kron_scalar", torch.kron, r(), r(3))
add("kron_mixed", torch.kron, i(2, 2), r(3, dtype=torch.float32))
add("kron_bool", torch.kron, torch.tensor([True, False]), torch.tensor([[True], [False], [True]]))
add("kron_empty", torch.kron, r(2, 0), r(3))
add("tensordot_2", lambda a, b: torch.tensordot(a, b, 2), r(2, 3, 4), r(3, 4, 5))
add("tensordot_lists", lambda a, b: torch.tensordot(a, b, ([0, 2], [1, 0])), r(3, 4, 5), r(5, 3, 2))
add("tensordot_size1", lambda a, b: torch.tensordot(a, b, ([1], [0])), r(2, 3), r(1, 4))
add("tensordot_0", lambda a, b: torch.tensordot(a, b, 0), r(2), r(3))
add("tensordot_all", lambda a, b: torch.tensordot(a, b, 2), r(2, 3), r(2, 3))
add("tensordot_i64", lambda a, b: torch.tensordot(a, b, 1), i(2, 3), i(3, 4))
add("inner", torch.inner, r(2, 3), r(4, 3))
add("inner_scalar", torch.inner, r(2, 3), torch.tensor(2))
add("inner_1d", torch.inner, r(5), r(5))
add("vdot", torch.vdot, r(4), r(4))
add("vdot_i64", torch.vdot, i(4), i(4))
add("mv", lambda m, v: torch.mv(m.t(), v), r(4, 3), r(4))
add("mv_i64", torch.mv, i(3, 4), i(4))
add("addmv", lambda c, m, v: torch.addmv(c, m, v, beta=0.5, alpha=-1.3), r(3), r(3, 4), r(4))
add("addmv_one", lambda c, m, v: torch.addmv(c, m, v), r(), r(3, 4), r(4))
add("addmv_beta0", lambda c, m, v: torch.addmv(c, m, v, beta=0, alpha=2), torch.full((3,), nan, dtype=f64), r(3, 4), r(4))
add("addmv_f32", lambda c, m, v: torch.addmv(c, m, v, beta=2, alpha=3), r(3, dtype=torch.float32), r(3, 4, dtype=torch.float32), r(4, dtype=torch.float32))
add("addmv_i64", lambda c, m, v: torch.addmv(c, m, v, beta=2, alpha=3), i(3), i(3, 4), i(4))
add("addr", lambda c, a, b: torch.addr(c, a, b, beta=2.0, alpha=0.5), r(3), r(2), r(3))
add("addr_default", torch.addr, r(2, 3), r(2), r(3))
add("addr_beta0", lambda c, a, b: torch.addr(c, a, b, beta=0.0, alpha=1.5), torch.full((2, 3), nan, dtype=f64), r(2), r(3))
add("addr_mixed", lambda c, a, b: torch.addr(c, a, b, beta=2, alpha=3), i(2, 3), r(2, dtype=torch.float32), r(3, dtype=torch.float32))
add("addr_i64", lambda c, a, b: torch.addr(c, a, b, beta=2, alpha=3), i(2, 3), i(2), i(3))
add("addr_bool", lambda c, a, b: torch.addr(c, a, b), torch.tensor([[True, False, False], [False, False, True]]),
    torch.tensor([True, False]), torch.tensor([False, True, True]))
add("addr_bool_beta0", lambda c, a, b: torch.addr(c, a, b, beta=0, alpha=1), torch.ones(2, 3, dtype=torch.bool),
    torch.tensor([True, False]), torch.tensor([False, True, True]))
add("addbmm", lambda c, a, b: torch.addbmm(c, a, b, beta=0.5, alpha=-2.0), r(2, 4), r(5, 2, 3), r(5, 3, 4))
add("addbmm_bcast", lambda c, a, b: torch.addbmm(c, a, b), r(4), r(3, 2, 3), r(3, 3, 4))
add("addbmm_empty", lambda c, a, b: torch.addbmm(c, a, b, beta=2.0, alpha=1.0), r(2, 4), r(0, 2, 3), r(0, 3, 4))
add("addbmm_i64", lambda c, a, b: torch.addbmm(c, a, b, beta=2, alpha=3), i(2, 4), i(5, 2, 3), i(5, 3, 4))
md = torch.linalg.multi_dot
add("multidot_4", lambda *t: md(list(t)), r(10, 2), r(2, 30), r(30, 3), r(3, 40))
add("multidot_3a", lambda *t: md(list(t)), r(2, 30), r(30, 3), r(3, 4))
add("multidot_3b", lambda *t: md(list(t)), r(30, 2), r(2, 30), r(30, 4))
add("multidot_vecs", lambda *t: md(list(t)), r(3), r(3, 4), r(4, 2), r(2))
add("multidot_row", lambda *t: md(list(t)), r(3), r(3, 4))
add("multidot_i64", lambda *t: md(list(t)), i(2, 3), i(3, 4), i(4, 2))
add("chainmatmul", lambda *t: torch.chain_matmul(*t), r(3, 4), r(4, 5), r(5, 2))
add("cross", lambda a, b: torch.linalg.cross(a, b), r(4, 3), r(4, 3))
add("cross_dim0", lambda a, b: torch.linalg.cross(a, b, dim=0), r(3, 2), r(3, 2))
add("cross_bcast", lambda a, b: torch.linalg.cross(a, b), r(1, 3), r(4, 3))
add("cross_default", lambda a, b: torch.cross(a, b), r(2, 3, 3), r(2, 3, 3))
add("cross_i64", lambda a, b: torch.linalg.cross(a, b), i(2, 3), i(2, 3))
add("diff", torch.diff, r(2, 5))
add("diff_n2_dim0", lambda x: torch.diff(x, n=2, dim=0), r(4, 3))
add("diff_edges", lambda x, p, a: torch.diff(x, n=1, dim=1, prepend=p, append=a), r(2, 3), r(2, 1), r(2, 2))
add("diff_promote", lambda x, p: torch.diff(x, n=1, dim=-1, prepend=p), i(2, 3), r(2, 1, dtype=torch.float32))
add("diff_bool", torch.diff, torch.tensor([True, False, False, True]))
add("diff_long_n", lambda x: torch.diff(x, n=7, dim=0), torch.tensor([1, 5, 3], dtype=torch.int8))
add("diff_uint8", torch.diff, torch.tensor([1, 5, 3], dtype=torch.uint8))
add("diff_n0", lambda x: torch.diff(x, n=0, dim=-1), r(2, 3))
out["cases"] = cases
torch.save(out, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.pt"))
print(len(cases), "cases")
