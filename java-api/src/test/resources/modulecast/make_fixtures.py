"""Writes fixtures.pt for ModuleCastTest with PyTorch 2.13 on the CPU: a Conv2d/BatchNorm2d/ReLU/
Flatten/LayerNorm/Linear model ("model.*": its float32 state_dict after one training forward, so
the running statistics are not the defaults), its input x, and after model.half() (then
model.bfloat16(), then model.float()): the state_dict ("half.*", "bf16.*", "back.*", dtypes per
key), the eval-mode outputs ("half.eval_out", ...), the train-mode output and the statistics it
updates ("half.train_out", "half_train.*"), and an SGD step (lr 0.1, built before the cast) on
(train_out * up).sum() in float16 ("step.*", "step.up").
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
from torch import nn

torch.manual_seed(63)
model = nn.Sequential(nn.Conv2d(2, 3, 3, padding=1), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.LayerNorm(48),
                      nn.Linear(48, 4))
x = torch.randn(2, 2, 4, 4)
out = {"x": x}
model.train()
model(x)  # running statistics away from 0 and 1
for k, v in model.state_dict().items():
    out[f"model.{k}"] = v.clone()


def record(prefix):
    for k, v in model.state_dict().items():
        out[f"{prefix}.{k}"] = v.clone()
    model.eval()
    out[f"{prefix}.eval_out"] = model(x.to(next(model.parameters()).dtype)).detach()


opt = torch.optim.SGD(model.parameters(), lr=0.1)  # before the cast: the same Parameter objects
model.half()
record("half")
model.bfloat16()
record("bf16")
model.float()
record("back")
model.half()
model.train()
y = model(x.half())
out["half.train_out"] = y.detach()
for k, v in model.state_dict().items():
    out[f"half_train.{k}"] = v.clone()
up = torch.randn(y.shape).half()
out["step.up"] = up
(y * up).sum().backward()
opt.step()
for k, v in model.state_dict().items():
    out[f"step.{k}"] = v.clone()
torch.save(out, "fixtures.pt")
