"""Writes checkpoint.pt for ResNetCheckpointTest with PyTorch 2.13: the main job's small ResNet
(benchmarks/peers/torch_fashion_mnist.py's, torchvision's BasicBlock names), trained three Adam
steps on random data so that every BatchNorm's running statistics and num_batches_tracked have
moved; "state_dict" is its state_dict() as PyTorch saves it, unedited; "input" a batch of 4 images
and "eval_output" the model's output for it in eval mode.
Regenerate: python3 make_checkpoint.py (in a virtualenv with torch)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


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


torch.manual_seed(5)
model = nn.Sequential(nn.Conv2d(1, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                      BasicBlock(16, 16, 1), BasicBlock(16, 32, 2), BasicBlock(32, 64, 2),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10))
opt = torch.optim.Adam(model.parameters(), 1e-2)
for _ in range(3):
    x, y = torch.rand(8, 1, 28, 28), torch.randint(0, 10, (8,))
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()
model.eval()
x = torch.rand(4, 1, 28, 28)
with torch.no_grad():
    out = model(x)
torch.save({"state_dict": model.state_dict(), "input": x, "eval_output": out}, "checkpoint.pt")
