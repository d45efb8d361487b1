"""PyTorch's side of the main job on this machine (scripts/sample.sh --data DIR --model resnet|cnn|mlp):
the same models, Adam 1e-3 unless sgd is given, batch 128, pixels / 255, a fresh random order per epoch, 2 threads.
resnet: a 3x3 stem of 16 channels, torchvision BasicBlocks 16, 32/2, 64/2, global average pooling,
linear; cnn: conv16-relu-pool-conv32-relu-pool-fc128-relu-fc10; mlp: 784-256-128-10. With SCHEDULE cosine the learning
rate follows CosineAnnealingLR(T_max = EPOCHS), stepped once an epoch (the main job's --schedule
cosine). With augment, each training image gets RandomCrop(28, padding=2) and RandomHorizontalFlip, as the
main job's --augment draws them (per image: a row offset, a column offset, a flip). Prints each epoch's
seconds and test accuracy. With sgd the optimizer is SGD (lr 0.1, momentum 0.9, weight decay 5e-4), the
ResNet's recipe in scripts/train-full.sh; else Adam 1e-3.
Usage: torch_fashion_mnist.py DATA_DIR [EPOCHS] [THREADS] [constant|cosine] [resnet|cnn|mlp] [augment] [sgd]
   or: torch_fashion_mnist.py --benchmark resnet|cnn|mlp [THREADS]: the training step on a random batch of
       128 (no data read), forward with the loss, backward and Adam's step, medians of 40 steps after 20
       of warm-up, printed as `peer step MODEL forward F backward B step S ms` (jtensor's same:
       FashionMnist --model MODEL --benchmark)."""
import gzip
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

benchmark = sys.argv[1] == "--benchmark"
if benchmark:
    # glibc mmaps blocks above its threshold and unmaps them on free, page-faulting every step's
    # activations in again (the step took 210 ms, not 60). In the training run, loading the data set
    # raises glibc's adaptive threshold first; here it is raised as that run's steady state has it.
    import ctypes
    libc = ctypes.CDLL("libc.so.6")
    libc.mallopt(-3, 1 << 30)  # M_MMAP_THRESHOLD
    libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD
    model_name = sys.argv[2] if len(sys.argv) > 2 else "resnet"
    torch.set_num_threads(int(sys.argv[3]) if len(sys.argv) > 3 else 2)
    epochs, schedule = 0, "constant"
else:
    data = sys.argv[1]
    epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    torch.set_num_threads(int(sys.argv[3]) if len(sys.argv) > 3 else 2)
    schedule = sys.argv[4] if len(sys.argv) > 4 else "constant"
    model_name = sys.argv[5] if len(sys.argv) > 5 else "resnet"
    augment, sgd = "augment" in sys.argv[6:], "sgd" in sys.argv[6:]


def idx(name, off):
    return np.frombuffer(gzip.open(f"{data}/{name}").read(), np.uint8, offset=off)


if not benchmark:
    xtr = torch.tensor(idx("train-images-idx3-ubyte.gz", 16).reshape(-1, 1, 28, 28), dtype=torch.float32) / 255
    ytr = torch.tensor(idx("train-labels-idx1-ubyte.gz", 8), dtype=torch.int64)
    xte = torch.tensor(idx("t10k-images-idx3-ubyte.gz", 16).reshape(-1, 1, 28, 28), dtype=torch.float32) / 255
    yte = torch.tensor(idx("t10k-labels-idx1-ubyte.gz", 8), dtype=torch.int64)


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None if stride == 1 and cin == cout else nn.Sequential(
            nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        h = self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x)))))
        return F.relu(h + (x if self.downsample is None else self.downsample(x)))


def augmented(xb):
    """RandomCrop(28, padding=2) and RandomHorizontalFlip per image of a batch [n, 1, 28, 28], gathered at once."""
    n = xb.shape[0]
    padded = F.pad(xb, (2, 2, 2, 2))
    u = torch.rand(n, 3)
    span = torch.arange(28)
    rows = (u[:, 0] * 5).long()[:, None] + span
    cols = (u[:, 1] * 5).long()[:, None] + span
    cols = torch.where((u[:, 2] < 0.5)[:, None], cols.flip(1), cols)  # the crop's columns reversed
    return padded[torch.arange(n)[:, None, None], 0, rows[:, :, None], cols[:, None, :]].unsqueeze(1)


torch.manual_seed(0)
if model_name == "mlp":
    model = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
elif model_name == "cnn":
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Flatten(), nn.Linear(32 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
else:
    model = nn.Sequential(nn.Conv2d(1, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                          BasicBlock(16, 16, 1), BasicBlock(16, 32, 2), BasicBlock(32, 64, 2),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10))
if not benchmark and sgd:
    opt = torch.optim.SGD(model.parameters(), 0.1, momentum=0.9, weight_decay=5e-4)
else:
    opt = torch.optim.Adam(model.parameters(), 1e-3)
if benchmark:
    import statistics
    x, y = torch.rand(128, 1, 28, 28), torch.randint(0, 10, (128,))
    f, b, s = [], [], []
    for r in range(60):
        t0 = time.perf_counter()
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        opt.step()
        loss.item()
        t3 = time.perf_counter()
        if r >= 20:
            f.append(t1 - t0), b.append(t2 - t1), s.append(t3 - t0)
    ms = lambda v: statistics.median(v) * 1e3
    print(f"peer step {model_name} forward {ms(f):.2f} backward {ms(b):.2f} step {ms(s):.2f} ms", flush=True)
    sys.exit(0)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs) if schedule == "cosine" else None
for epoch in range(1, epochs + 1):
    model.train()
    t0 = time.perf_counter()
    order = torch.randperm(len(xtr))
    for i in range(0, len(xtr), 128):
        b = order[i:i + 128]
        opt.zero_grad()
        xb = augmented(xtr[b]) if augment else xtr[b]
        loss = F.cross_entropy(model(xb), ytr[b])
        loss.backward()
        opt.step()
    if sched is not None:
        sched.step()
    secs = time.perf_counter() - t0
    model.eval()
    with torch.no_grad():
        correct = sum((model(xte[i:i + 1000]).argmax(1) == yte[i:i + 1000]).sum().item() for i in range(0, len(xte), 1000))
    print(f"peer {model_name}{' augmented' if augment else ''}{' sgd' if sgd else ''} epoch {epoch}: {secs:.1f} s, test accuracy {100 * correct / len(xte):.2f}%", flush=True)
