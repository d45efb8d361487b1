"""PyTorch 2.13's side of the first-day examples: initial weights, a batch, and the losses of a few steps.

python make_reference.py OUT_DIR writes cnn.pt and encoder.pt (each: state, x, y, losses, logits).
"""
import sys
import torch
from torch import nn

out = sys.argv[1] if len(sys.argv) > 1 else "."
torch.manual_seed(0)


def squares(n, size=12):
    """Images [n, 1, size, size]: noise and a bright 3x3 square in one of four quadrants (the class)."""
    y = torch.randint(0, 4, (n,))
    x = torch.randn(n, 1, size, size) * 0.3
    half = size // 2
    for i in range(n):
        r = (y[i].item() // 2) * half + torch.randint(0, half - 2, ()).item()
        c = (y[i].item() % 2) * half + torch.randint(0, half - 2, ()).item()
        x[i, 0, r:r + 3, c:c + 3] += 2.0
    return x, y


cnn = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Flatten(), nn.Dropout(0.25), nn.Linear(16 * 3 * 3, 4))
state = {k: v.clone() for k, v in cnn.state_dict().items()}
x, y = squares(64)


def train_and_save(model, state, x, y, opt, file, sched=None, clip=None):
    """Six steps on (x, y), then the eval logits, saved with the initial state and the losses."""
    losses = []
    for _ in range(6):
        opt.zero_grad()
        loss = nn.CrossEntropyLoss()(model(x), y)
        loss.backward()
        if clip:
            nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()
        if sched:
            sched.step()
        losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        logits = model(x)
    torch.save({"state": state, "x": x, "y": y, "losses": torch.tensor(losses, dtype=torch.float64), "logits": logits},
               f"{out}/{file}")


cnn[9].eval()  # dropout off: its draws are not PyTorch's
opt = torch.optim.SGD(cnn.parameters(), lr=0.05, momentum=0.9)
train_and_save(cnn, state, x, y, opt, "cnn.pt", sched=torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5))


class Encoder(nn.Module):
    def __init__(self, vocab=11, d=32, length=8):
        super().__init__()
        self.tok = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(length, d)
        self.enc = nn.TransformerEncoderLayer(d, 4, 64, 0.0, batch_first=True)
        self.head = nn.Linear(d, 2)

    def forward(self, ids):
        pad = ids == 0
        h = self.tok(ids) + self.pos(torch.arange(ids.shape[1]))
        h = self.enc(h, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).to(h.dtype)
        return self.head((h * keep).sum(1) / keep.sum(1))


def sequences(n, length=8):
    """Token ids 1..10 (0 pads the tail), lengths 4..8; the class: is the sequence non-decreasing?"""
    ids = torch.zeros(n, length, dtype=torch.int64)
    y = torch.randint(0, 2, (n,))
    for i in range(n):
        m = torch.randint(4, length + 1, ()).item()
        s = torch.randint(1, 11, (m,))
        ids[i, :m] = s.sort().values if y[i] == 1 else s
    y = (ids[:, 1:] >= ids[:, :-1]).logical_or(ids[:, 1:] == 0).all(1).long()
    return ids, y


enc = Encoder()
state = {k: v.clone() for k, v in enc.state_dict().items()}
ids, y = sequences(64)
train_and_save(enc, state, ids, y, torch.optim.AdamW(enc.parameters(), lr=3e-3, weight_decay=0.01), "encoder.pt", clip=1.0)
print("cnn and encoder references written to", out)
