"""The ranking bench's yardstick, run in the same run as Agora: the numpy oracle's command line
(docs/ranking.md#speed-anchors) on a vote file: json.loads per line, (a, b, outcome) cells, plain
Bradley-Terry by Newton (lambda = 0, ties as half a win) and sandwich standard errors.
Prints one JSON line: parse, aggregate and fit times (ms), CPU time (ms) and peak RSS (MB).
Usage: OPENBLAS_NUM_THREADS=1 python3 ranking-oracle.py FILE"""
import json
import resource
import sys
import time

import numpy as np

LABEL = {"model_a": 1.0, "model_b": 0.0, "tie": 0.5, "both_bad": 0.5, "tie_bothbad": 0.5, "tie (bothbad)": 0.5}


def parse(path):
    index, a, b, y = {}, [], [], []
    with open(path, encoding="utf8") as lines:
        for line in lines:
            if not line.strip():
                continue
            row = json.loads(line)
            a.append(index.setdefault(row["model_a"], len(index)))
            b.append(index.setdefault(row["model_b"], len(index)))
            y.append(LABEL[row["winner"]])
    return len(index), np.array(a), np.array(b), np.array(y)


def aggregate(models, a, b, y):
    keep = a != b
    key = (a[keep] * models + b[keep]) * 3 + (y[keep] * 2).astype(np.int64)
    cells, counts = np.unique(key, return_counts=True)
    outcome = (cells % 3) / 2.0
    pair = cells // 3
    return pair // models, pair % models, outcome, counts.astype(np.float64)


def fit(models, a, b, y, w):
    theta = np.zeros(models)
    for _ in range(50):
        p = 1 / (1 + np.exp(-(theta[a] - theta[b])))
        r = w * (y - p)
        grad = np.bincount(a, r, models) - np.bincount(b, r, models)
        h = w * p * (1 - p)
        hess = np.zeros((models, models))
        np.add.at(hess, (a, a), h)
        np.add.at(hess, (b, b), h)
        np.add.at(hess, (a, b), -h)
        np.add.at(hess, (b, a), -h)
        # gauge: the last model at 0
        step = np.linalg.solve(hess[:-1, :-1], grad[:-1])
        theta[:-1] += step
        if np.abs(step).max() < 1e-10:
            break
    theta -= theta.mean()
    p = 1 / (1 + np.exp(-(theta[a] - theta[b])))
    score = np.zeros((len(a), models))
    rows = np.arange(len(a))
    score[rows, a] = y - p
    score[rows, b] = -(y - p)
    meat = (score * w[:, None]).T @ score
    inverse = np.linalg.pinv(hess)
    sandwich = inverse @ meat @ inverse
    return theta, np.sqrt(np.clip(np.diag(sandwich), 0, None))


def main(path):
    clock, cpu = time.perf_counter(), time.process_time()
    models, a, b, y = parse(path)
    parsed = time.perf_counter()
    cells = aggregate(models, a, b, y)
    aggregated = time.perf_counter()
    fit(models, *cells)
    done = time.perf_counter()
    print(json.dumps({
        "votes": len(a),
        "parse": (parsed - clock) * 1000,
        "aggregate": (aggregated - parsed) * 1000,
        "fit": (done - aggregated) * 1000,
        "wall": (done - clock) * 1000,
        "cpu": (time.process_time() - cpu) * 1000,
        "peakRssMb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }))


main(sys.argv[1])
