"""Cut an OpenSim .trc file to a time range, header kept (NumFrames and OrigNumFrames set to
the rows kept), so that OpenSim's TRCFileAdapter still reads it.

    python trim_trc.py IN.trc OUT.trc T0 T1
"""
import sys


def trim(src, dst, t0, t1):
    with open(src, encoding="utf-8", newline="") as f:
        lines = f.read().splitlines()
    head, rows = lines[:5], [r for r in lines[5:] if r.strip()]
    kept = [r for r in rows if t0 - 1e-9 <= float(r.split("\t")[1]) <= t1 + 1e-9]
    keys, values = head[1].split("\t"), head[2].split("\t")
    for key in ("NumFrames", "OrigNumFrames"):
        if key in keys:
            values[keys.index(key)] = str(len(kept))
    head[2] = "\t".join(values)
    with open(dst, "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(head + kept) + "\n")


if __name__ == "__main__":
    trim(sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]))
