"""Writes reprs.txt for ModuleReprTest with PyTorch 2.13: print(module) of each nn module jtensor
has, built with non-default arguments where PyTorch shows them (and with the defaults, which it
leaves out). Each case is a line "=== <name>" followed by the repr's lines.
Regenerate: python3 make_fixtures.py (in a virtualenv with torch)."""
import torch
from torch import nn

CASES = {
    "linear": lambda: nn.Linear(784, 256),
    "linear_nobias": lambda: nn.Linear(3, 2, bias=False),
    "bilinear": lambda: nn.Bilinear(2, 3, 4, bias=False),
    "conv1d": lambda: nn.Conv1d(2, 4, 3),
    "conv2d": lambda: nn.Conv2d(2, 4, 3, stride=2, padding=1, bias=False),
    "conv2d_dilated": lambda: nn.Conv2d(4, 4, (3, 5), padding="same", dilation=2, groups=2),
    "conv3d": lambda: nn.Conv3d(1, 2, 3, padding="valid"),
    "conv_transpose2d": lambda: nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1),
    "batchnorm1d": lambda: nn.BatchNorm1d(5),
    "batchnorm2d": lambda: nn.BatchNorm2d(3, eps=1e-3, momentum=None, affine=False, track_running_stats=False),
    "instancenorm2d": lambda: nn.InstanceNorm2d(3, affine=True),
    "layernorm": lambda: nn.LayerNorm(48),
    "layernorm_plain": lambda: nn.LayerNorm([3, 4], eps=1e-6, elementwise_affine=False, bias=False),
    "groupnorm": lambda: nn.GroupNorm(2, 4, eps=1e-3, affine=False),
    "rmsnorm": lambda: nn.RMSNorm([4], eps=1e-6),
    "localresponsenorm": lambda: nn.LocalResponseNorm(3, alpha=1e-3, beta=0.5, k=2.0),
    "dropout": lambda: nn.Dropout(0.3),
    "dropout2d": lambda: nn.Dropout2d(0.25),
    "alphadropout": lambda: nn.AlphaDropout(0.2),
    "embedding": lambda: nn.Embedding(10, 3),
    "embedding_padding": lambda: nn.Embedding(10, 3, padding_idx=0),
    "relu": lambda: nn.ReLU(),
    "leakyrelu": lambda: nn.LeakyReLU(0.2),
    "elu": lambda: nn.ELU(alpha=0.5),
    "celu": lambda: nn.CELU(alpha=2.0),
    "hardtanh": lambda: nn.Hardtanh(-2.0, 2.0),
    "relu6": lambda: nn.ReLU6(),
    "softplus": lambda: nn.Softplus(beta=2.0, threshold=10.0),
    "softmax": lambda: nn.Softmax(dim=1),
    "softmin": lambda: nn.Softmin(dim=-1),
    "glu": lambda: nn.GLU(dim=0),
    "threshold": lambda: nn.Threshold(0.1, 20.0),
    "hardshrink": lambda: nn.Hardshrink(0.25),
    "softshrink": lambda: nn.Softshrink(0.75),
    "prelu": lambda: nn.PReLU(3, init=0.1),
    "rrelu": lambda: nn.RReLU(0.1, 0.3),
    "gelu": lambda: nn.GELU(),
    "sigmoid": lambda: nn.Sigmoid(),
    "flatten": lambda: nn.Flatten(),
    "flatten_dims": lambda: nn.Flatten(0, 2),
    "maxpool2d": lambda: nn.MaxPool2d(2),
    "maxpool1d": lambda: nn.MaxPool1d(3, stride=2, padding=1, dilation=2, ceil_mode=True),
    "avgpool2d": lambda: nn.AvgPool2d(3, stride=1, padding=1, ceil_mode=True, count_include_pad=False),
    "adaptiveavgpool2d": lambda: nn.AdaptiveAvgPool2d((1, 1)),
    "adaptivemaxpool1d": lambda: nn.AdaptiveMaxPool1d(4),
    "pixelshuffle": lambda: nn.PixelShuffle(2),
    "identity": lambda: nn.Identity(),
    "logsoftmax": lambda: nn.LogSoftmax(dim=1),
    "pixelunshuffle": lambda: nn.PixelUnshuffle(3),
    "multiheadattention": lambda: nn.MultiheadAttention(8, 2),
    "encoderlayer": lambda: nn.TransformerEncoderLayer(8, 2, 16),
    "encoder": lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2, enable_nested_tensor=False),
    "decoderlayer": lambda: nn.TransformerDecoderLayer(8, 2, 16),
    "embeddingbag": lambda: nn.EmbeddingBag(10, 3),
    "embeddingbag_max": lambda: nn.EmbeddingBag(10, 3, max_norm=1.0, norm_type=1.0, mode="max", padding_idx=2),
    "maxunpool1d": lambda: nn.MaxUnpool1d(3, stride=2, padding=1),
    "maxunpool2d": lambda: nn.MaxUnpool2d(2),
    "lppool1d": lambda: nn.LPPool1d(1.5, 3, stride=2, ceil_mode=True),
    "lppool2d": lambda: nn.LPPool2d(2.5, 3),
    "upsample": lambda: nn.Upsample(scale_factor=(2.0, 3.0), mode="bilinear", align_corners=True),
    "upsample_size": lambda: nn.Upsample(size=(4, 4)),
    "moduledict": lambda: nn.ModuleDict({"act": nn.ReLU(), "fc": nn.Linear(2, 3)}),
    "transformer": lambda: nn.Transformer(8, 2, 1, 1, 16),
    "conv_transpose1d": lambda: nn.ConvTranspose1d(2, 3, 4),
    "instancenorm1d": lambda: nn.InstanceNorm1d(4),
    "dropout3d": lambda: nn.Dropout3d(0.4),
    "featurealphadropout": lambda: nn.FeatureAlphaDropout(0.1),
    "avgpool1d": lambda: nn.AvgPool1d(3),
    "maxpool3d": lambda: nn.MaxPool3d(2),
    "adaptivemaxpool2d": lambda: nn.AdaptiveMaxPool2d((2, 3)),
    "hardswish": lambda: nn.Hardswish(),
    "silu": lambda: nn.SiLU(),
    "crossentropyloss": lambda: nn.CrossEntropyLoss(label_smoothing=0.1),
    "mseloss": lambda: nn.MSELoss(reduction="sum"),
    "sequential": lambda: nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2), nn.Linear(256, 10)),
    "nested": lambda: nn.Sequential(nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2)), nn.Flatten()),
    "modulelist": lambda: nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2)]),
}


class MyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(8, 2)


CASES["mynet"] = MyNet
CASES["empty_sequential"] = lambda: nn.Sequential()

with open("reprs.txt", "w") as f:
    for name, make in CASES.items():
        f.write(f"=== {name}\n{make()!r}\n")
