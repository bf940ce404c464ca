"""Times PyTorch's training step on the project's net for "trench bench --peers".

Usage: python3 torch_step.py DIR

DIR/meta.json describes the net and the batches, as internal/bench writes
them: "config" is the net's nn.Config, "tensors" lists its checkpoint
tensors (name, shape) whose values follow one another in DIR/net.bin as
little-endian float32, "train" holds the optimizer's settings, and
"batches" the training batches, each {"n", "file"}: its file holds, as
little-endian float32 one after the other, the input planes, the policy,
value and score targets and, when the net has the bases, the value, score
and policy offsets (nn.Batch's fields, in that order).

The script builds the net the project trains (nn/fasttrain.go): a 3×3
stem and residual blocks of convolution, batch norm and ReLU; a policy
head (3×3 convolution then a k×k output convolution, or 1×1 convolution
then a dense layer); a value head (1×1 convolution, dense layer with
ReLU, win/draw/loss and score layers); the same losses (policy and
win/draw/loss cross-entropy after the offsets, half the squared score
error in units of the score scale, weighted by score_weight) and SGD with
Nesterov momentum and weight decay on the convolution and dense kernels.
It runs on one thread.

It prints {"ready": true, "torch": version}, then answers each line of
stdin with one line of JSON:
  "losses N STEPS": the losses (policy, value, score) of STEPS steps on
      batch N from the weights as loaded, each before its update;
  "time N SECONDS": the steps on batch N made in at least SECONDS after
      a warm-up, as {"calls", "wall", "cpu"} (elapsed and process CPU
      seconds).
"""
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
torch.set_num_interop_threads(1)


class ConvBN(torch.nn.Module):
    """A convolution without bias followed by batch norm."""

    def __init__(self, cin, cout, k, bn_momentum):
        super().__init__()
        self.conv = torch.nn.Conv2d(cin, cout, k, padding=k // 2, bias=False)
        self.bn = torch.nn.BatchNorm2d(cout, eps=1e-5, momentum=bn_momentum)

    def forward(self, x):
        return self.bn(self.conv(x))


class Net(torch.nn.Module):
    """The project's residual net (nn.Config)."""

    def __init__(self, c, bn_momentum):
        super().__init__()
        shape = c["shape"]
        self.h, self.w = shape["Height"], shape["Width"]
        hw = self.h * self.w
        ch = c["channels"]
        self.seats = c["seats"]
        self.stem = ConvBN(shape["Planes"], ch, 3, bn_momentum)
        self.blocks = torch.nn.ModuleList()
        for _ in range(c["blocks"]):
            self.blocks.append(torch.nn.ModuleList([ConvBN(ch, ch, 3, bn_momentum), ConvBN(ch, ch, 3, bn_momentum)]))
        pc = c["policy_channels"]
        self.planes = c.get("policy_planes", 0)
        if self.planes > 0:
            k = c.get("policy_kernel", 0) or 3
            self.policy = ConvBN(ch, pc, 3, bn_momentum)
            self.policy_out = torch.nn.Conv2d(pc, self.planes, k, padding=k // 2, bias=True)
            cells = c.get("policy_cells")
            self.register_buffer("cells", None if cells is None else torch.tensor(cells, dtype=torch.long))
        else:
            self.policy = ConvBN(ch, pc, 1, bn_momentum)
            self.policy_fc = torch.nn.Linear(pc * hw, c["actions"])
        vc = c["value_channels"]
        self.value = ConvBN(ch, vc, 1, bn_momentum)
        self.value_fc1 = torch.nn.Linear(vc * hw, c["value_hidden"])
        self.value_fc2 = torch.nn.Linear(c["value_hidden"], 3 * self.seats)
        self.score_fc = torch.nn.Linear(c["value_hidden"], self.seats)

    def forward(self, x):
        x = F.relu(self.stem(x))
        for first, second in self.blocks:
            x = F.relu(second(F.relu(first(x))) + x)
        n = x.shape[0]
        p = F.relu(self.policy(x))
        if self.planes > 0:
            # Plane k at square s is the logit of cell s·planes + k.
            p = self.policy_out(p).permute(0, 2, 3, 1).reshape(n, -1)
            if self.cells is not None:
                p = p.index_select(1, self.cells)
        else:
            p = self.policy_fc(p.flatten(1))
        v = F.relu(self.value(x)).flatten(1)
        hidden = F.relu(self.value_fc1(v))
        return p, self.value_fc2(hidden).reshape(n, self.seats, 3), self.score_fc(hidden)

    def load(self, tensors):
        """Copies the checkpoint's tensors (name → numpy array) into the net."""
        sd = {}

        def conv(prefix, mod):
            sd[mod + ".conv.weight"] = tensors[prefix + "/conv"]
            sd[mod + ".bn.weight"] = tensors[prefix + "/bn/scale"]
            sd[mod + ".bn.bias"] = tensors[prefix + "/bn/bias"]
            sd[mod + ".bn.running_mean"] = tensors[prefix + "/bn/mean"]
            sd[mod + ".bn.running_var"] = tensors[prefix + "/bn/var"]

        def dense(prefix, mod):
            sd[mod + ".weight"] = tensors[prefix + "/w"].T  # the project's kernels are in × out
            sd[mod + ".bias"] = tensors[prefix + "/b"]

        conv("stem", "stem")
        for b in range(len(self.blocks)):
            conv("block%d/1" % b, "blocks.%d.0" % b)
            conv("block%d/2" % b, "blocks.%d.1" % b)
        conv("policy", "policy")
        if self.planes > 0:
            sd["policy_out.weight"] = tensors["policy/out/conv"]
            sd["policy_out.bias"] = tensors["policy/out/b"]
        else:
            dense("policy/fc", "policy_fc")
        conv("value", "value")
        dense("value/fc1", "value_fc1")
        dense("value/fc2", "value_fc2")
        dense("score/fc", "score_fc")
        own = self.state_dict()
        for k, v in own.items():
            if k == "cells" or k.endswith("num_batches_tracked"):
                continue
            t = torch.from_numpy(np.ascontiguousarray(sd.pop(k)))
            if t.shape != v.shape:
                raise ValueError("%s: shape %s, want %s" % (k, tuple(t.shape), tuple(v.shape)))
            v.copy_(t)
        if sd:
            raise ValueError("tensors not used: %s" % sorted(sd))


def read_floats(f, count):
    a = np.fromfile(f, dtype="<f4", count=count)
    if a.size != count:
        raise ValueError("%s: short file" % f.name)
    return a


class Peer:
    def __init__(self, d):
        with open(os.path.join(d, "meta.json")) as f:
            self.meta = json.load(f)
        c = self.meta["config"]
        self.cfg = c
        self.tensors = {}
        with open(os.path.join(d, "net.bin"), "rb") as f:
            for t in self.meta["tensors"]:
                shape = t["shape"]
                self.tensors[t["name"]] = read_floats(f, int(np.prod(shape))).reshape(shape)
        shape = c["shape"]
        fs = shape["Planes"] * shape["Height"] * shape["Width"]
        seats, actions = c["seats"], c["actions"]
        value_base = c.get("value_base", "") != ""
        policy_base = c.get("policy_base", "") != ""
        self.batches = {}
        for b in self.meta["batches"]:
            n = b["n"]
            with open(os.path.join(d, b["file"]), "rb") as f:
                def arr(count, *dims):
                    return torch.from_numpy(read_floats(f, count).reshape(dims))
                x = arr(n * fs, n, shape["Planes"], shape["Height"], shape["Width"])
                policy = arr(n * actions, n, actions)
                value = arr(n * seats * 3, n, seats, 3)
                score = arr(n * seats, n, seats)
                vo = so = po = None
                if value_base:
                    vo = arr(n * seats, n, seats)
                    so = arr(n * seats, n, seats)
                if policy_base:
                    po = arr(n * actions, n, actions)
            zero = torch.zeros(n, seats)
            # [o, 0, −o] on each seat's win/draw/loss logits.
            wdl_offset = torch.zeros(n, seats, 3) if vo is None else torch.stack([vo, zero, -vo], dim=2)
            score_offset = zero if so is None else so / c["score_scale"]
            self.batches[n] = (x, policy, value, score / c["score_scale"], wdl_offset, score_offset, po)

    def fresh(self):
        """Returns a net with the loaded weights, in training mode, and its optimizer."""
        tr = self.meta["train"]
        net = Net(self.cfg, tr["bn_momentum"])
        net.load(self.tensors)
        net.train()
        decayed, other = [], []
        for name, p in net.named_parameters():
            # Convolution and dense kernels decay; biases and batch-norm
            # scales and shifts do not.
            (decayed if name.endswith("weight") and ".bn." not in name else other).append(p)
        opt = torch.optim.SGD([{"params": decayed, "weight_decay": tr["weight_decay"]}, {"params": other, "weight_decay": 0}],
                              lr=tr["lr"], momentum=tr["momentum"], nesterov=True)
        return net, opt

    def step(self, net, opt, n):
        x, policy, value, score, wdl_offset, score_offset, po = self.batches[n]
        opt.zero_grad(set_to_none=True)
        logits, wdl, s = net(x)
        if po is not None:
            logits = logits + po
        lp = -(policy * F.log_softmax(logits, dim=1)).sum(1).mean()
        lv = -(value * F.log_softmax(wdl + wdl_offset, dim=2)).sum((1, 2)).mean()
        d = s + score_offset - score
        ls = (0.5 * d * d).sum(1).mean()
        total = lp + lv + self.meta["train"]["score_weight"] * ls
        total.backward()
        opt.step()
        return lp.item(), lv.item(), ls.item()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 torch_step.py DIR")
    peer = Peer(sys.argv[1])
    print(json.dumps({"ready": True, "torch": torch.__version__}), flush=True)
    for line in sys.stdin:
        cmd, n, arg = line.split()
        n = int(n)
        if n not in peer.batches:
            raise ValueError("no batch of %d" % n)
        net, opt = peer.fresh()
        if cmd == "losses":
            print(json.dumps([peer.step(net, opt, n) for _ in range(int(arg))]), flush=True)
        elif cmd == "time":
            seconds = float(arg)
            for _ in range(2):
                peer.step(net, opt, n)
            cpu0, t0 = time.process_time(), time.perf_counter()
            calls, wall = 0, 0.0
            while calls == 0 or wall < seconds:
                peer.step(net, opt, n)
                calls += 1
                wall = time.perf_counter() - t0
            print(json.dumps({"calls": calls, "wall": wall, "cpu": time.process_time() - cpu0}), flush=True)
        else:
            raise ValueError("unknown command %r" % cmd)


if __name__ == "__main__":
    main()
