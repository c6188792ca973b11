"""An unmodified mpi4py program (run_mpi4py_test.sh runs it with and without
liboptcoll_pmpi.so preloaded): Bcast, Allreduce and Iallreduce (completed by
Wait and by a Test loop) on NumPy arrays of several sizes. Rank 0 prints
every rank's digest of its results."""
import hashlib

import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, p = comm.Get_rank(), comm.Get_size()
results = []
for n in (1, 7, 1000, 60000):
    a = ((np.arange(n, dtype="i4") * 7 + rank * 13) % 1000).astype("i4")
    b = a.copy()
    comm.Bcast(b, root=p - 1)
    results.append(b)
    s = np.empty_like(a)
    comm.Allreduce(a, s, op=MPI.SUM)
    results.append(s)
    t = np.empty_like(a)
    comm.Iallreduce(a, t, op=MPI.MAX).Wait()
    results.append(t)
    u = np.empty_like(a)
    req = comm.Iallreduce(a, u, op=MPI.SUM)
    while not req.Test():
        pass
    results.append(u)
digest = hashlib.sha256(b"".join(x.tobytes() for x in results)).hexdigest()
digests = comm.gather(digest, root=0)
if rank == 0:
    for r, d in enumerate(digests):
        print(f"rank {r} digest {d}")
