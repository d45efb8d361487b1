"""The runs both scheduler fixture scripts record (make_scheduler_states.py, make_scheduler_hostile.py): a
scheduler's state_dict() after some steps and the rates after it, and ReduceLROnPlateau's over a metric list."""
import copy

import torch

S = torch.optim.lr_scheduler


def momentum(opt):
    g = opt.param_groups[0]
    return g["betas"][0] if "betas" in g else g["momentum"]


def case(out, name, make, steps, kind="sgd", after=3, momenta=False):
    """make(opt)'s state_dict() after steps ("<name>.state"), steps ("<name>.epoch"), the rate after each of the next
    `after` steps ("<name>.next") and, with momenta, the momentum or beta1 ("<name>.mom"). Optimizer: SGD lr 0.5
    momentum 0.9, or Adam/AdamW lr 0.5."""
    p = torch.nn.Parameter(torch.zeros(1))
    opt = {"sgd": lambda: torch.optim.SGD([p], lr=0.5, momentum=0.9), "adam": lambda: torch.optim.Adam([p], lr=0.5),
           "adamw": lambda: torch.optim.AdamW([p], lr=0.5)}[kind]()
    sched = make(opt)
    for _ in range(steps):
        opt.step()
        sched.step()
    out[f"{name}.state"] = copy.deepcopy(sched.state_dict())
    out[f"{name}.epoch"] = steps
    rates, moms = [], []
    for _ in range(after):
        opt.step()
        sched.step()
        rates.append(opt.param_groups[0]["lr"])
        moms.append(float(momentum(opt)))
    out[f"{name}.next"] = rates
    if momenta:
        out[f"{name}.mom"] = moms


def plateau(out, metrics, name, steps, **kw):
    """ReduceLROnPlateau(SGD lr 0.5, **kw) after the first steps metrics: its state_dict(), steps, the rate, and the
    rate after each of the rest ("<name>.state", ".epoch", ".lr", ".next")."""
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=0.5)
    sched = S.ReduceLROnPlateau(opt, **kw)
    for m in metrics[:steps]:
        sched.step(m)
    out[f"{name}.state"] = copy.deepcopy(sched.state_dict())
    out[f"{name}.epoch"] = steps
    out[f"{name}.lr"] = opt.param_groups[0]["lr"]
    rates = []
    for m in metrics[steps:]:
        sched.step(m)
        rates.append(opt.param_groups[0]["lr"])
    out[f"{name}.next"] = rates
