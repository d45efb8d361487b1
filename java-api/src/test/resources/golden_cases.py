"""The case recorder shared by the make_fixtures.py of products/, distances/ and factories/: add(name,
fn, *inputs) stores "<name>.in0", ... and ".out", and when every input is float64 (and grad) the
gradients of (out * up).sum() as ".up", ".grad0", ... (zeros where no gradient flowed), and
appends name to cases."""
import torch


def randn(*shape, dtype=torch.float64):
    return torch.randn(shape, dtype=dtype)


def recorder(out, cases):
    def add(name, fn, *xs, grad=True):
        grad = grad and all(x.dtype == torch.float64 for x in xs)
        xs = [x.clone().requires_grad_(grad) for x in xs]
        y = fn(*xs)
        for k, x in enumerate(xs):
            out[f"{name}.in{k}"] = x.detach()
        out[f"{name}.out"] = y.detach()
        if grad:
            up = torch.randn(y.shape, dtype=y.dtype)
            (y * up).sum().backward()
            out[f"{name}.up"] = up
            for k, x in enumerate(xs):
                out[f"{name}.grad{k}"] = x.grad if x.grad is not None else torch.zeros_like(x)
        cases.append(name)
    return add
