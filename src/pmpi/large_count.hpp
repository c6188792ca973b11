// MPI-4's large-count bindings (MPI_<Op>_c; large_ops.def): their argument
// lists (MPI_Count counts, MPI_Aint displacements), which the int
// bindings' shapes take as they are (shapes*.hpp).
#pragma once

#include <mpi.h>

#if MPI_VERSION >= 4

// clang-format off
#define OPTCOLL_PMPI_PARAMS_C_bcast (void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_reduce \
  (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_allreduce \
  (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_reduce_scatter_block \
  (const void* sendbuf, void* recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_allgather \
  (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, \
   MPI_Datatype recvtype, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_alltoall OPTCOLL_PMPI_PARAMS_C_allgather
#define OPTCOLL_PMPI_PARAMS_C_gather \
  (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, \
   MPI_Datatype recvtype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_scatter OPTCOLL_PMPI_PARAMS_C_gather
#define OPTCOLL_PMPI_PARAMS_C_reduce_scatter \
  (const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_allgatherv \
  (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], \
   const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_gatherv \
  (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], \
   const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_scatterv \
  (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void* recvbuf, \
   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_alltoallv \
  (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf, \
   const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
// clang-format on

#endif
