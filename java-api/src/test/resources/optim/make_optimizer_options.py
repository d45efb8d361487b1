"""Writes optimizer_options.pt for OptimizerOptionsTest with PyTorch 2.13 (CPU: the single-tensor implementation, PyTorch's
default there): each case an optimizer over two parameter groups with their own options (p0, p1 and p2), 20 steps in
float32 and in float64 with gradients "<dtype>.grads" (flattened: step * 3 + i) from "<dtype>.start<i>": each parameter
after every step ("<case>.<dtype>.traj<i>", steps stacked), the state_dict after 10 steps ("<case>.<dtype>.state") and
the parameters then ("<case>.<dtype>.mid<i>"), a fresh Adagrad's state_dict ("adagrad.fresh"); the same 20 steps with torch's sqrt replaced by a correctly rounded
one ("<case>.<dtype>.ieee<i>": torch's CPU sqrt is MKL's, up to 0.75 ulp off, 14% of float32 results an ulp from
IEEE's here; jtensor's is IEEE's); and PyTorch's refusals of bad options ("refusals": label -> message).
Regenerate: python3 make_optimizer_options.py. Check jtensor's own state in PyTorch: run OptimizerOptionsTest with
-Djt.test.keepPt=DIR, then python3 make_optimizer_options.py --check DIR (loads jtensor_<case>_<dtype>.pt, saved after
10 steps, into PyTorch's optimizer and resumes it to PyTorch's parameters, bit for bit)."""
import contextlib
import copy
import sys

import numpy as np
import torch

O = torch.optim
torch.manual_seed(13)
STEPS, MID = 20, 10
shapes = [(3, 4), (4,), (5,)]
starts = [torch.randn(s, dtype=torch.float64) for s in shapes]
grads = [[torch.randn(s, dtype=torch.float64) for s in shapes] for _ in range(STEPS)]
DTYPES = {"float32": torch.float32, "float64": torch.float64}


def groups(ps, first, second):
    return [dict(params=ps[:2], **first), dict(params=ps[2:], **second)]


# Mirrored by OptimizerOptionsTest.CASES: keep the two in step.
CASES = {
    "adam": lambda ps: O.Adam(groups(ps, {}, {"amsgrad": False, "maximize": True, "lr": 1e-3}),
                              lr=3e-3, betas=(0.8, 0.95), weight_decay=0.01, amsgrad=True),
    "adamw": lambda ps: O.AdamW(groups(ps, {"weight_decay": 0.1}, {"amsgrad": False, "betas": (0.85, 0.99)}),
                                lr=3e-3, amsgrad=True, maximize=True),
    "sgd": lambda ps: O.SGD(groups(ps, {}, {"momentum": 0.5, "dampening": 0.1, "nesterov": False, "maximize": False}),
                            lr=0.05, momentum=0.9, weight_decay=0.01, nesterov=True, maximize=True),
    "rmsprop": lambda ps: O.RMSprop(groups(ps, {}, {"momentum": 0.0, "centered": False, "maximize": True, "alpha": 0.9, "weight_decay": 0.0}),
                                    lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.01, momentum=0.9, centered=True),
    "rmsprop2": lambda ps: O.RMSprop(groups(ps, {"momentum": 0.5}, {"centered": True, "lr": 3e-3}), lr=1e-2),
    # PyTorch fills every sum with the constructor's initial_accumulator_value, whatever a group sets
    "adagrad": lambda ps: O.Adagrad(groups(ps, {}, {"lr": 0.05, "lr_decay": 0.0, "initial_accumulator_value": 0.5, "maximize": True}),
                                    lr=0.1, lr_decay=0.01, weight_decay=0.01, initial_accumulator_value=0.1, eps=1e-10),
}

_p = [torch.nn.Parameter(torch.zeros(2))]
REFUSALS = {
    "adam.lr": lambda: O.Adam(_p, lr=-1.0),
    "adam.eps": lambda: O.Adam(_p, eps=-1.0),
    "adam.beta0": lambda: O.Adam(_p, betas=(1.0, 0.9)),
    "adam.beta1": lambda: O.Adam(_p, betas=(0.9, -0.5)),
    "adamw.weight_decay": lambda: O.AdamW(_p, weight_decay=-1.0),
    "sgd.lr": lambda: O.SGD(_p, lr=-1.0),
    "sgd.momentum": lambda: O.SGD(_p, lr=0.1, momentum=-1.0),
    "sgd.weight_decay": lambda: O.SGD(_p, lr=0.1, weight_decay=-1.0),
    "sgd.nesterov_dampening": lambda: O.SGD(_p, lr=0.1, momentum=0.9, dampening=0.5, nesterov=True),
    "sgd.nesterov_no_momentum": lambda: O.SGD(_p, lr=0.1, nesterov=True),
    "rmsprop.lr": lambda: O.RMSprop(_p, lr=-1.0),
    "rmsprop.eps": lambda: O.RMSprop(_p, eps=-1.0),
    "rmsprop.momentum": lambda: O.RMSprop(_p, momentum=-1.0),
    "rmsprop.weight_decay": lambda: O.RMSprop(_p, weight_decay=-1.0),
    "rmsprop.alpha": lambda: O.RMSprop(_p, alpha=-1.0),
    "adagrad.lr": lambda: O.Adagrad(_p, lr=-1.0),
    "adagrad.lr_decay": lambda: O.Adagrad(_p, lr_decay=-1.0),
    "adagrad.weight_decay": lambda: O.Adagrad(_p, weight_decay=-1.0),
    "adagrad.initial_accumulator_value": lambda: O.Adagrad(_p, initial_accumulator_value=-1.0),
    "adagrad.eps": lambda: O.Adagrad(_p, eps=-1.0),
}


def refusal(make):
    try:
        make()
    except ValueError as e:
        return str(e)
    raise AssertionError("PyTorch took it")


@contextlib.contextmanager
def ieee_sqrt():
    """Tensor.sqrt and sqrt_ (the optimizers' only ones) correctly rounded, through numpy."""
    old = torch.Tensor.sqrt, torch.Tensor.sqrt_
    torch.Tensor.sqrt = lambda t: torch.from_numpy(np.sqrt(t.detach().numpy()))
    torch.Tensor.sqrt_ = lambda t: t.copy_(torch.from_numpy(np.sqrt(t.detach().numpy())))
    try:
        yield
    finally:
        torch.Tensor.sqrt, torch.Tensor.sqrt_ = old


def params(ts, dtype):
    return [torch.nn.Parameter(t.to(dtype).clone()) for t in ts]


def run(opt, ps, dtype, frm, to, traj=None):
    for step in range(frm, to):
        for p, g in zip(ps, grads[step]):
            p.grad = g.to(dtype).clone()
        opt.step()
        if traj is not None:
            for i, p in enumerate(ps):
                traj[i].append(p.detach().clone())


if len(sys.argv) == 3 and sys.argv[1] == "--check":
    # with IEEE's sqrt, as jtensor's: bit for bit; with torch's own: within a few ulps where the step divides by a sqrt
    for mode, sqrt in (("IEEE's sqrt", ieee_sqrt), ("torch's sqrt", contextlib.nullcontext)):
        for name, make in CASES.items():
            for dt, dtype in DTYPES.items():
                exact = mode == "IEEE's sqrt" or not name.startswith(("rmsprop", "adagrad"))
                tol = dict(rtol=0, atol=0) if exact else dict(rtol=0, atol=1e-6 if dt == "float32" else 1e-13)
                with sqrt():
                    ps = params(starts, dtype)
                    opt = make(ps)
                    run(opt, ps, dtype, 0, MID)
                    qs = [torch.nn.Parameter(p.detach().clone()) for p in ps]
                    opt2 = make(qs)
                    opt2.load_state_dict(torch.load(f"{sys.argv[2]}/jtensor_{name}_{dt}.pt", weights_only=False))
                    assert opt2.state_dict()["param_groups"] == opt.state_dict()["param_groups"], name
                    for k, st in opt.state_dict()["state"].items():
                        mine = opt2.state_dict()["state"][k]
                        assert list(mine.keys()) == list(st.keys()), (name, dt, k, mine.keys())
                        for key in st:
                            torch.testing.assert_close(mine[key], st[key], **tol)
                    run(opt, ps, dtype, MID, STEPS)
                    run(opt2, qs, dtype, MID, STEPS)
                    for p, q in zip(ps, qs):
                        torch.testing.assert_close(q, p, **tol)
                print(f"{name} {dt} ({mode}): jtensor's state loads in PyTorch and resumes as PyTorch's own", "bit for bit" if exact else f"within {tol['atol']}")
    sys.exit(0)

out = {"refusals": {k: refusal(v) for k, v in REFUSALS.items()}}
out["adagrad.fresh"] = CASES["adagrad"](params(starts, torch.float32)).state_dict()  # a state for every parameter before any step
for dt, dtype in DTYPES.items():
    out[f"{dt}.grads"] = [g.to(dtype) for step in grads for g in step]
    for i, s in enumerate(starts):
        out[f"{dt}.start{i}"] = s.to(dtype)
    for name, make in CASES.items():
        ps = params(starts, dtype)
        opt = make(ps)
        traj = [[] for _ in ps]
        run(opt, ps, dtype, 0, MID, traj)
        out[f"{name}.{dt}.state"] = copy.deepcopy(opt.state_dict())
        for i, p in enumerate(ps):
            out[f"{name}.{dt}.mid{i}"] = p.detach().clone()
        run(opt, ps, dtype, MID, STEPS, traj)
        for i in range(len(ps)):
            out[f"{name}.{dt}.traj{i}"] = torch.stack(traj[i])
        with ieee_sqrt():
            ps = params(starts, dtype)
            opt, traj = make(ps), [[] for _ in ps]
            run(opt, ps, dtype, 0, STEPS, traj)
        for i in range(len(ps)):
            out[f"{name}.{dt}.ieee{i}"] = torch.stack(traj[i])
torch.save(out, "optimizer_options.pt")
print(len(out), "entries")
