"""Writes fixtures.pt for LinalgTest with PyTorch 2.13: torch.linalg.solve, inv, det, slogdet,
cholesky (lower and upper) and lu_factor on well-conditioned random, ill-conditioned but invertible
(condition number about 1e6 in float64, 1e3 in float32), batched and broadcast inputs, float64 and
float32, with the gradients of (out * up).sum() ("<case>.A", ".B", ".out", ".sign", ".logabsdet",
".pivots", ".up", ".grad_A", ".grad_B", ".cond": A's 2-norm condition number, which scales the
test's tolerance). "blocked.*": solve's, slogdet's and lu_factor's answers for a 160 x 160 float64
matrix cos(1.7 ij + 0.3 i²), which the test rebuilds (past the blocked LU's threshold). "cases" lists the case names as "<op>/<what>_<dtype>".
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch

torch.manual_seed(52)
out, cases = {}, []


def ill(n, cond, dt, batch=()):
    """A random matrix with singular values from 1 down to 1/cond."""
    u, _ = torch.linalg.qr(torch.randn(*batch, n, n, dtype=torch.float64))
    v, _ = torch.linalg.qr(torch.randn(*batch, n, n, dtype=torch.float64))
    s = torch.logspace(0, -torch.log10(torch.tensor(float(cond))).item(), n, dtype=torch.float64)
    return (u * s.unsqueeze(-2)) @ v.mT


def spd(n, dt, batch=()):
    x = torch.randn(*batch, n, n, dtype=torch.float64)
    return (x @ x.mT + n * torch.eye(n, dtype=torch.float64)).to(dt)


def add(name, fn, A, B=None, grad=True):
    A = A.clone().requires_grad_(grad)
    B = None if B is None else B.clone().requires_grad_(grad)
    r = fn(A) if B is None else fn(A, B)
    out[f"{name}.A"] = A.detach()
    out[f"{name}.cond"] = torch.linalg.cond(A.detach().to(torch.float64)).reshape(-1).max().reshape(())
    if B is not None:
        out[f"{name}.B"] = B.detach()
    if isinstance(r, tuple):  # slogdet, lu_factor
        if name.startswith("slogdet"):
            out[f"{name}.sign"], out[f"{name}.logabsdet"] = r[0].detach(), r[1].detach()
            y = r[1]
        else:
            out[f"{name}.out"], out[f"{name}.pivots"] = r[0].detach(), r[1]
            y = None
    else:
        out[f"{name}.out"] = r.detach()
        y = r
    if grad and y is not None:
        up = torch.randn(y.shape, dtype=y.dtype)
        (y * up).sum().backward()
        out[f"{name}.up"] = up
        out[f"{name}.grad_A"] = A.grad
        if B is not None:
            out[f"{name}.grad_B"] = B.grad
    cases.append(name)


for dt, tag, cond in [(torch.float64, "f64", 1e6), (torch.float32, "f32", 1e3)]:
    r = lambda *s: torch.randn(*s, dtype=dt)
    add(f"solve/rand_{tag}", torch.linalg.solve, r(5, 5), r(5, 3))
    add(f"solve/vector_{tag}", torch.linalg.solve, r(4, 4), r(4))
    add(f"solve/ill_{tag}", torch.linalg.solve, ill(6, cond, dt).to(dt), r(6, 2))
    add(f"solve/batched_{tag}", torch.linalg.solve, r(3, 4, 4), r(3, 4, 2))
    add(f"solve/batched_vector_{tag}", torch.linalg.solve, r(3, 4, 4), r(3, 4))
    add(f"solve/broadcast_A_{tag}", torch.linalg.solve, r(4, 4), r(2, 3, 4, 2))
    add(f"solve/broadcast_both_{tag}", torch.linalg.solve, r(2, 1, 3, 3), r(4, 3, 1))
    add(f"solve/vector_broadcast_{tag}", torch.linalg.solve, r(2, 3, 3), r(3))
    add(f"solve/large_{tag}", torch.linalg.solve, r(40, 40), r(40, 7))
    add(f"inv/rand_{tag}", torch.linalg.inv, r(5, 5))
    add(f"inv/ill_{tag}", torch.linalg.inv, ill(5, cond, dt).to(dt))
    add(f"inv/batched_{tag}", torch.linalg.inv, r(2, 3, 4, 4))
    add(f"inv/one_{tag}", torch.linalg.inv, r(1, 1))
    add(f"det/rand_{tag}", torch.linalg.det, r(5, 5))
    add(f"det/ill_{tag}", torch.linalg.det, ill(5, cond, dt).to(dt))
    add(f"det/batched_{tag}", torch.linalg.det, r(3, 2, 4, 4))
    add(f"det/permuted_{tag}", torch.linalg.det, torch.tensor([[0., 2., 1.], [3., 0., 1.], [1., 1., 0.]], dtype=dt))
    add(f"slogdet/rand_{tag}", torch.linalg.slogdet, r(5, 5))
    add(f"slogdet/ill_{tag}", torch.linalg.slogdet, ill(6, cond, dt).to(dt))
    add(f"slogdet/batched_{tag}", torch.linalg.slogdet, r(4, 3, 3))
    add(f"cholesky/rand_{tag}", torch.linalg.cholesky, spd(5, dt))
    add(f"cholesky/batched_{tag}", torch.linalg.cholesky, spd(4, dt, (2, 3)))
    add(f"cholesky/upper_{tag}", lambda a: torch.linalg.cholesky(a, upper=True), spd(4, dt))
    a = spd(4, dt)
    a[0, 3] = 100.0  # the upper triangle is never read
    add(f"cholesky/lower_read_{tag}", torch.linalg.cholesky, a, grad=False)
    add(f"lu_factor/rand_{tag}", torch.linalg.lu_factor, r(5, 5), grad=False)
    add(f"lu_factor/batched_{tag}", torch.linalg.lu_factor, r(2, 4, 4), grad=False)

# Past the LU's blocking threshold (128): A from a formula the test rebuilds, so only answers are stored
i = torch.arange(160, dtype=torch.float64).unsqueeze(1)
j = torch.arange(160, dtype=torch.float64).unsqueeze(0)
big = torch.cos(1.7 * i * j + 0.3 * i * i)
out["blocked.x"] = torch.linalg.solve(big, torch.ones(160, 2, dtype=torch.float64))
out["blocked.sign"], out["blocked.logabsdet"] = torch.linalg.slogdet(big)
out["blocked.cond"] = torch.linalg.cond(big)
out["blocked.pivots"] = torch.linalg.lu_factor(big)[1]

out["cases"] = cases
torch.save(out, "fixtures.pt")
print(len(cases), "cases")
