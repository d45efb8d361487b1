"""Writes scheduler_states.pt for SchedulerStateDictTest with PyTorch 2.13: for each case, the
scheduler's state_dict() after N steps ("<case>.state"), N ("<case>.epoch") and the rates of the
three steps after it ("<case>.next"); ReduceLROnPlateau's after the first N metrics of "metrics",
its rate ("<case>.lr") and its rates after each of the rest. Regenerate: python3 make_scheduler_states.py."""
import torch

from scheduler_cases import S, case as run_case, plateau as run_plateau

out = {}


def case(name, make, steps, adam=False):
    run_case(out, name, make, steps, kind="adam" if adam else "sgd")


case("step", lambda o: S.StepLR(o, step_size=3, gamma=0.5), 4)
case("cosine", lambda o: S.CosineAnnealingLR(o, T_max=10, eta_min=0.001), 3)
case("lambda", lambda o: S.LambdaLR(o, lambda e: 0.9 ** e), 3)
case("linear", lambda o: S.LinearLR(o, start_factor=0.1, end_factor=1.0, total_iters=5), 3)
case("onecycle", lambda o: S.OneCycleLR(o, max_lr=0.8, total_steps=30), 7)
case("onecycle_adam", lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=20, pct_start=0.25, anneal_strategy="linear"), 5, adam=True)
for n in (0, 3, 5, 8):
    case(f"sequential{n}", lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, 1.0, 5), S.StepLR(o, 2), S.CosineAnnealingLR(o, 10)],
                                                    milestones=[5, 7]), n)

metrics = [1.0, 0.9, 0.95, 0.97, 0.96, 0.99, 0.98, 0.5, 0.6, 0.7, 0.8, 0.9]


def plateau(name, steps):
    run_plateau(out, metrics, name, steps, mode="min", factor=0.5, patience=1, cooldown=1, min_lr=0.01)


plateau("plateau4", 4)  # in its cooldown
plateau("plateau6", 6)  # one bad epoch counted
out["metrics"] = metrics
torch.save(out, "scheduler_states.pt")
print(len(out), "entries")
