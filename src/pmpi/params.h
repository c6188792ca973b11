/* The parameter and argument lists of the intercepted collectives, one
 * pair per shape (shapes.hpp): OPTCOLL_PMPI_PARAMS_<shape> and
 * OPTCOLL_PMPI_ARGS_<shape>, for the blocking call. C as well as C++: the
 * drop-in (src/pmpi/) and the Open MPI component (src/ompi/) expand them. */
#ifndef OPTCOLL_PMPI_PARAMS_H
#define OPTCOLL_PMPI_PARAMS_H

#include <mpi.h>

/* clang-format off */
#define OPTCOLL_PMPI_PARAMS_bcast (void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_bcast (buffer, count, datatype, root, comm)
#define OPTCOLL_PMPI_PARAMS_reduce \
  (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_reduce (sendbuf, recvbuf, count, datatype, op, root, comm)
#define OPTCOLL_PMPI_PARAMS_allgather \
  (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, \
   MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_allgather (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)
#define OPTCOLL_PMPI_PARAMS_allgatherv \
  (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], \
   const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_allgatherv (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm)
#define OPTCOLL_PMPI_PARAMS_gather \
  (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, \
   int root, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_gather (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm)
#define OPTCOLL_PMPI_PARAMS_gatherv \
  (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], \
   const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_gatherv (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm)
#define OPTCOLL_PMPI_PARAMS_scatter \
  (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, \
   int root, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_scatter (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm)
#define OPTCOLL_PMPI_PARAMS_scatterv \
  (const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf, \
   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_scatterv (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm)
#define OPTCOLL_PMPI_PARAMS_allreduce \
  (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_allreduce (sendbuf, recvbuf, count, datatype, op, comm)
#define OPTCOLL_PMPI_PARAMS_reduce_scatter_block \
  (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_reduce_scatter_block (sendbuf, recvbuf, recvcount, datatype, op, comm)
#define OPTCOLL_PMPI_PARAMS_reduce_scatter \
  (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_reduce_scatter (sendbuf, recvbuf, recvcounts, datatype, op, comm)
#define OPTCOLL_PMPI_PARAMS_alltoall \
  (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, \
   MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_alltoall (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)
#define OPTCOLL_PMPI_PARAMS_alltoallv \
  (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, \
   const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_alltoallv \
  (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm)
/* clang-format on */

#endif
