"""Byte counts as the reports print them (8 B, 64 KiB, 1 MiB): shared by
scripts/smpi-report.py and scripts/smpi-nodes-report.py."""


def human(b):
    b = int(b)
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return f"{b >> 20} MiB"
    if b >= 1 << 10 and b % (1 << 10) == 0:
        return f"{b >> 10} KiB"
    return f"{b} B"
