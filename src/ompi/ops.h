/* The collectives the component takes (the drop-in's, src/pmpi/ops.def and
 * request_ops.def), one line each:
 *
 *   OPTCOLL_OMPI_OP(Name, field, shape)
 *
 * Name: the blocking MPI_<Name>; field: its entry coll_<field> in Open
 * MPI's module (coll_i<field> nonblocking, coll_<field>_init persistent),
 * which also names the drop-in's request operations I<field> and
 * <Name>_init; shape: its argument list (src/pmpi/params.h). bridge.cpp
 * checks that the list covers ops.def. */
OPTCOLL_OMPI_OP(Bcast, bcast, bcast)
OPTCOLL_OMPI_OP(Reduce, reduce, reduce)
OPTCOLL_OMPI_OP(Allgather, allgather, allgather)
OPTCOLL_OMPI_OP(Allgatherv, allgatherv, allgatherv)
OPTCOLL_OMPI_OP(Reduce_scatter_block, reduce_scatter_block, reduce_scatter_block)
OPTCOLL_OMPI_OP(Reduce_scatter, reduce_scatter, reduce_scatter)
OPTCOLL_OMPI_OP(Allreduce, allreduce, allreduce)
OPTCOLL_OMPI_OP(Gather, gather, gather)
OPTCOLL_OMPI_OP(Gatherv, gatherv, gatherv)
OPTCOLL_OMPI_OP(Scatter, scatter, scatter)
OPTCOLL_OMPI_OP(Scatterv, scatterv, scatterv)
OPTCOLL_OMPI_OP(Alltoall, alltoall, alltoall)
OPTCOLL_OMPI_OP(Alltoallv, alltoallv, alltoallv)
OPTCOLL_OMPI_OP(Scan, scan, allreduce)
OPTCOLL_OMPI_OP(Exscan, exscan, allreduce)
