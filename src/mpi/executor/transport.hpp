// The point-to-point calls the MPI executor posts its messages with: one
// executor, several transports. The library and the drop-in use MPI's
// profiling interface (PMPI_*); the Open MPI coll component (src/ompi/)
// installs one that goes straight to Open MPI's point-to-point layer (its
// PML), as Open MPI's own collectives do.
//
// Contract of every transport: MPI's semantics and return codes (MPI error
// classes) for the call of the same name; the requests it makes are MPI
// requests (tested and waited for with PMPI_*); messages on a communicator
// and tag match in order. The tag the executor passes is optcoll's own
// (comm_state.hpp); a transport may map it into a range of its own, the
// same way at every rank.
#pragma once

#include <mpi.h>

#include <atomic>

namespace optcoll::mpi {

struct Transport {
  int (*isend)(const void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request* r);
  int (*irecv)(void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request* r);
  int (*send)(const void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm);
  int (*recv)(void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Status* status);
  int (*sendrecv)(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf, int rcount,
                  MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status);
};

// PMPI_Isend, PMPI_Irecv, PMPI_Send, PMPI_Recv, PMPI_Sendrecv.
inline constexpr Transport kPmpiTransport{&PMPI_Isend, &PMPI_Irecv, &PMPI_Send, &PMPI_Recv, &PMPI_Sendrecv};

namespace transport_state {
inline std::atomic<const Transport*> g_transport{&kPmpiTransport};
}  // namespace transport_state

// The transport of the executors constructed from now on (kPmpiTransport
// unless set). Set once, before optcoll's first collective, by whoever
// embeds optcoll (the component: when Open MPI opens it). An executor
// keeps the transport it was constructed with, so that binding one per
// call costs nothing.
inline const Transport& transport() noexcept {
  return *transport_state::g_transport.load(std::memory_order_acquire);
}
inline void set_transport(const Transport& t) noexcept {
  transport_state::g_transport.store(&t, std::memory_order_release);
}

}  // namespace optcoll::mpi
