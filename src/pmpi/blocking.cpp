// liboptcoll_pmpi.so's blocking point-to-point calls: MPI's own, unless
// optcoll runs are going (a nonblocking or persistent
// collective that optcoll runs, not yet complete). Then the call is made
// nonblocking and waited for with poll_native() (requests.hpp), which
// advances those runs between tests. Without it a program may hang that
// MPI allows: rank 0 waits in MPI_Recv for a message that rank 1 sends only
// once its MPI_Iallreduce has completed, and rank 0's part of that
// Iallreduce advances only when rank 0 enters optcoll. A program with no
// optcoll run going pays one atomic load per call. The calls: MPI_Send,
// MPI_Ssend, MPI_Recv, MPI_Sendrecv, MPI_Sendrecv_replace, MPI_Probe,
// MPI_Mprobe; a blocking point-to-point call matches the nonblocking one at
// the other end, so this changes nothing for the peer.
//
// MPI_Barrier, like the native path of the intercepted collectives
// (requests::native_blocking), is MPI_Ibarrier waited for the same way on a
// communicator where optcoll has made nonblocking or persistent
// collectives, else MPI's own (MPI_Ibarrier and a wait cost Open MPI more
// than its barrier on one node). A blocking collective does not match a nonblocking one
// (MPI 4.0, 6.12), so the choice cannot depend on whether this rank has
// runs going (tried: it hung at np 2); whether optcoll has made requests on
// the communicator is the same at every rank of it. (Other blocking calls:
// docs/drop-in.md.)
#include <mpi.h>

#include <vector>

#include "mpi/requests/request.hpp"
#include "requests.hpp"

namespace {
using optcoll::mpi::other_requests_running;
using optcoll::pmpi::requests::poll_native;
using optcoll::pmpi::requests::wait_native;
}  // namespace

extern "C" int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (!other_requests_running()) return PMPI_Send(buf, count, type, dest, tag, comm);
  MPI_Request r = MPI_REQUEST_NULL;
  if (const int rc = PMPI_Isend(buf, count, type, dest, tag, comm, &r); rc != MPI_SUCCESS) return rc;
  return wait_native(r, MPI_STATUS_IGNORE);
}

extern "C" int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (!other_requests_running()) return PMPI_Ssend(buf, count, type, dest, tag, comm);
  MPI_Request r = MPI_REQUEST_NULL;
  if (const int rc = PMPI_Issend(buf, count, type, dest, tag, comm, &r); rc != MPI_SUCCESS) return rc;
  return wait_native(r, MPI_STATUS_IGNORE);
}

extern "C" int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                        MPI_Status* status) {
  if (!other_requests_running()) return PMPI_Recv(buf, count, type, source, tag, comm, status);
  MPI_Request r = MPI_REQUEST_NULL;
  if (const int rc = PMPI_Irecv(buf, count, type, source, tag, comm, &r); rc != MPI_SUCCESS) return rc;
  return wait_native(r, status);
}

extern "C" int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                            MPI_Status* status) {
  if (!other_requests_running())
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
  MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  if (const int rc = PMPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, &r[0]); rc != MPI_SUCCESS)
    return rc;
  if (const int rc = PMPI_Isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, &r[1]); rc != MPI_SUCCESS) {
    PMPI_Cancel(&r[0]);
    PMPI_Request_free(&r[0]);
    return rc;
  }
  if (const int rc = wait_native(r[1], MPI_STATUS_IGNORE); rc != MPI_SUCCESS) return rc;
  return wait_native(r[0], status);
}

extern "C" int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
                                    int recvtag, MPI_Comm comm, MPI_Status* status) {
  if (!other_requests_running())
    return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  // The outgoing message packed first (MPI_PACKED matches any receive of
  // the same type signature), so that the receive may land in buf at once.
  int bytes = 0;
  if (const int rc = PMPI_Pack_size(count, type, comm, &bytes); rc != MPI_SUCCESS) return rc;
  std::vector<char> packed(static_cast<std::size_t>(bytes));
  int position = 0;
  if (const int rc = PMPI_Pack(buf, count, type, packed.data(), bytes, &position, comm); rc != MPI_SUCCESS) return rc;
  MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  if (const int rc = PMPI_Irecv(buf, count, type, source, recvtag, comm, &r[0]); rc != MPI_SUCCESS) return rc;
  if (const int rc = PMPI_Isend(packed.data(), position, MPI_PACKED, dest, sendtag, comm, &r[1]); rc != MPI_SUCCESS) {
    PMPI_Cancel(&r[0]);
    PMPI_Request_free(&r[0]);
    return rc;
  }
  if (const int rc = wait_native(r[1], MPI_STATUS_IGNORE); rc != MPI_SUCCESS) return rc;
  return wait_native(r[0], status);
}

extern "C" int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  if (!other_requests_running()) return PMPI_Mprobe(source, tag, comm, message, status);
  return poll_native([&](bool& done) {
    int flag = 0;
    const int rc = PMPI_Improbe(source, tag, comm, &flag, message, status);
    done = flag != 0;
    return rc;
  });
}

extern "C" int MPI_Barrier(MPI_Comm comm) {
  return optcoll::pmpi::requests::native_blocking<&PMPI_Barrier, &PMPI_Ibarrier>(comm);
}

extern "C" int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  if (!other_requests_running()) return PMPI_Probe(source, tag, comm, status);
  return poll_native([&](bool& done) {
    int flag = 0;
    const int rc = PMPI_Iprobe(source, tag, comm, &flag, status);
    done = flag != 0;
    return rc;
  });
}
