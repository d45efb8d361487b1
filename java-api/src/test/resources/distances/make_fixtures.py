"""Writes fixtures.pt for DistancesTest with PyTorch 2.13: dist, cdist (its exact path, and its GEMM
path for p = 2 with more than 25 rows or when asked), F.pairwise_distance, F.pdist,
F.cosine_similarity, trapezoid and cumulative_trapezoid over float64 (with the gradients of (out * up).sum()), float32, broadcast
batches, equal rows (zero distances) and empty inputs. Each case "<name>" holds "<name>.in0",
".in1", ".out", and for float64 ".up", ".grad0", ".grad1"; "cases" lists the names; DistancesTest
maps each name to the call with the arguments below.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from golden_cases import randn as r, recorder  # noqa: E402

torch.manual_seed(46)
out, cases = {}, []
f64 = torch.float64
add = recorder(out, cases)


add("dist", torch.dist, r(2, 3), r(3))
add("dist_p1", lambda a, b: torch.dist(a, b, 1), r(2, 3), r(2, 3))
add("dist_p0", lambda a, b: torch.dist(a, b, 0), r(4), r(4), grad=False)  # PyTorch 2.13's backward of p = 0 fails
add("dist_inf", lambda a, b: torch.dist(a, b, float("inf")), r(2, 3), r(2, 3))
add("dist_p3", lambda a, b: torch.dist(a, b, 3), r(5), r(5))
add("dist_f32", torch.dist, r(2, 3, dtype=torch.float32), r(2, 3, dtype=torch.float32))
a, b = r(4, 3), r(5, 3)
b[1] = a[2]  # a zero distance
add("cdist", torch.cdist, a, b)
add("cdist_p1", lambda x, y: torch.cdist(x, y, p=1), a, b)
add("cdist_p3", lambda x, y: torch.cdist(x, y, p=3), a, b)
add("cdist_inf", lambda x, y: torch.cdist(x, y, p=float("inf")), a, b)
add("cdist_batch", torch.cdist, r(2, 1, 5, 3), r(3, 4, 3))
big = r(30, 4)
add("cdist_gemm", torch.cdist, big, r(6, 4))
add("cdist_mm", lambda x, y: torch.cdist(x, y, compute_mode="use_mm_for_euclid_dist"), a, b)
add("cdist_nomm", lambda x, y: torch.cdist(x, y, compute_mode="donot_use_mm_for_euclid_dist"), big, r(6, 4))
add("cdist_f32", torch.cdist, r(30, 4, dtype=torch.float32), r(3, 4, dtype=torch.float32))
add("cdist_empty", torch.cdist, r(0, 3), r(4, 3))
add("pairwise", F.pairwise_distance, r(4, 3), r(3))
add("pairwise_p1_keep", lambda x, y: F.pairwise_distance(x, y, p=1, eps=1e-3, keepdim=True), r(2, 4, 3), r(2, 4, 3))
add("pairwise_int", F.pairwise_distance, torch.arange(6).reshape(2, 3), torch.arange(6).reshape(2, 3))
add("pdist", F.pdist, r(5, 3))
add("pdist_p1", lambda x: F.pdist(x, 1), r(4, 3))
add("pdist_one", F.pdist, r(1, 3))
add("cosine", lambda x, y: F.cosine_similarity(x, y, dim=1, eps=1e-8), r(4, 3), r(1, 3))
y = r(3, 5)
add("trapezoid", torch.trapezoid, y)
add("trapezoid_dx", lambda t: torch.trapezoid(t, dx=0.3, dim=0), y)
add("trapezoid_x", lambda t, x: torch.trapezoid(t, x, dim=1), y, r(5))
add("trapezoid_x2d", lambda t, x: torch.trapezoid(t, x, dim=-1), y, r(3, 5))
add("trapezoid_int", torch.trapezoid, torch.arange(6).reshape(2, 3))
add("trapezoid_empty", lambda t: torch.trapezoid(t, dim=1), r(2, 0), grad=False)  # zeros, not differentiable in PyTorch
add("cumtrapz", lambda t: torch.cumulative_trapezoid(t, dx=0.5, dim=1), y)
add("cumtrapz_x", lambda t, x: torch.cumulative_trapezoid(t, x, dim=0), y, r(3))
out["cases"] = cases
torch.save(out, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.pt"))
print(len(cases), "cases")
