"""The case recorders shared by the make_fixtures.py scripts. recorder (products/, distances/,
factories/): add(name, fn, *inputs) stores "<name>.in0", ... and ".out", and when every input is
float64 (and grad) the gradients of (out * up).sum() as ".up", ".grad0", ... (zeros where no
gradient flowed), and appends name to cases. xy_recorder (bitlevel/): GoldenComparison's names,
".x", ".y", ".out", and for a float result that has a gradient ".up", ".grad_x", ".grad_y"; a
tuple result keeps its first as ".out" and its second as ".exponent" (frexp)."""
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


def xy_recorder(out, cases):
    def add(name, fn, *xs, grad=True):
        xs = [x.clone().requires_grad_(grad and x.is_floating_point()) for x in xs]
        y = fn(*xs)
        if isinstance(y, tuple):
            out[f"{name}.exponent"] = y[1]
            y = y[0]
        for k, x in zip(("x", "y"), xs):
            out[f"{name}.{k}"] = x.detach()
        out[f"{name}.out"] = y.detach()
        if grad and y.is_floating_point() and y.requires_grad:
            up = torch.randn(y.shape, dtype=y.dtype)
            (y * up).sum().backward()
            out[f"{name}.up"] = up
            for k, x in zip(("x", "y"), xs):
                if x.grad is not None:
                    out[f"{name}.grad_{k}"] = x.grad
        cases.append(name)
    return add
