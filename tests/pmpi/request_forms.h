/* Compiles an ordinary MPI program's blocking collectives as their
 * nonblocking (PLAIN_REQUEST_FORM 1: MPI_I<op> then MPI_Wait) or persistent
 * (2: MPI_<Op>_init, MPI_Start, MPI_Wait, MPI_Request_free; Open MPI 4.1:
 * MPIX_<Op>_init) forms, and with PLAIN_LARGE_COUNT (MPI-4) every
 * collective as its large-count binding (MPI_<Op>_c, MPI_I<op>_c,
 * MPI_<Op>_init_c; form 0: blocking; count arrays widened to MPI_Count,
 * displacements to MPI_Aint; the v collectives' int bindings at some calls
 * of odd ranks, form_int_binding()), so that plain_collectives.c and
 * plain_v_cases.c test them through the drop-in with the same cases and the
 * same oracle (their run without optcoll). An error of the starting
 * call is returned as the blocking call would return it. op_label() gives
 * the name the drop-in counts a call under. */
#ifndef OPTCOLL_TEST_REQUEST_FORMS_H
#define OPTCOLL_TEST_REQUEST_FORMS_H

#include <ctype.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#ifndef PLAIN_REQUEST_FORM
#define PLAIN_REQUEST_FORM 0
#endif
#ifdef PLAIN_LARGE_COUNT
#define FORM_C(name) FORM_C2(name)
#define FORM_C2(name) name##_c
#else
#define FORM_C(name) name
#endif

#if PLAIN_REQUEST_FORM != 0
static MPI_Request form_request = MPI_REQUEST_NULL;
#endif

#if PLAIN_REQUEST_FORM == 0
#define FORM_CALL(Blocking, nonblocking, ...) FORM_C(MPI_##Blocking)(__VA_ARGS__)
#define FORM_CALL_V(Blocking, nonblocking, ...) MPI_##Blocking(__VA_ARGS__)
#elif PLAIN_REQUEST_FORM == 1
static int form_complete(int rc) {
  return rc == MPI_SUCCESS ? MPI_Wait(&form_request, MPI_STATUS_IGNORE) : rc;
}
#define FORM_CALL(Blocking, nonblocking, ...) form_complete(FORM_C(MPI_I##nonblocking)(__VA_ARGS__, &form_request))
#define FORM_CALL_V(Blocking, nonblocking, ...) form_complete(MPI_I##nonblocking(__VA_ARGS__, &form_request))
#elif PLAIN_REQUEST_FORM == 2
#if MPI_VERSION >= 4
#define FORM_INIT(Blocking) MPI_##Blocking##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define FORM_INIT(Blocking) MPIX_##Blocking##_init
#else
#error "no persistent collectives in this MPI"
#endif
static int form_complete(int rc) {
  if (rc != MPI_SUCCESS) return rc;
  rc = MPI_Start(&form_request);
  if (rc == MPI_SUCCESS) rc = MPI_Wait(&form_request, MPI_STATUS_IGNORE);
  const int rc_free = MPI_Request_free(&form_request);
  return rc != MPI_SUCCESS ? rc : rc_free;
}
#define FORM_CALL(Blocking, nonblocking, ...) \
  form_complete(FORM_C(FORM_INIT(Blocking))(__VA_ARGS__, MPI_INFO_NULL, &form_request))
#define FORM_CALL_V(Blocking, nonblocking, ...) \
  form_complete(FORM_INIT(Blocking)(__VA_ARGS__, MPI_INFO_NULL, &form_request))
#else
#error "PLAIN_REQUEST_FORM: 0 (blocking), 1 (nonblocking) or 2 (persistent)"
#endif

#ifdef PLAIN_LARGE_COUNT
/* The entries of comm's count arrays: its size, or with remote its remote
 * group's on an intercommunicator (0 for an invalid comm). */
static inline int form_size(MPI_Comm comm, int remote) {
  int inter = 0, p = 0;
  if (comm == MPI_COMM_NULL || MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) return 0;
  if (remote && inter)
    MPI_Comm_remote_size(comm, &p);
  else
    MPI_Comm_size(comm, &p);
  return p;
}
/* The collectives with count arrays in their large-count forms: the int
 * arrays widened to MPI_Count counts and MPI_Aint displacements (p entries;
 * NULL stays NULL), in static storage, one slot per argument, that outlives
 * the call's completion (form_complete) and is reused by the next call. */
static inline void* form_widen(int slot, const int* a, int p, int aint) {
  static void* store[4];
  static size_t room[4];
  if (a == NULL) return NULL;
  const size_t bytes = (size_t)p * (aint ? sizeof(MPI_Aint) : sizeof(MPI_Count)) + 1;
  if (room[slot] < bytes) {
    free(store[slot]);
    store[slot] = malloc(bytes);
    room[slot] = bytes;
  }
  for (int i = 0; i < p; ++i) {
    if (aint)
      ((MPI_Aint*)store[slot])[i] = a[i];
    else
      ((MPI_Count*)store[slot])[i] = a[i];
  }
  return store[slot];
}
#define FORM_COUNTS(slot, a, p) ((const MPI_Count*)form_widen(slot, a, p, 0))
#define FORM_DISPLS(slot, a, p) ((const MPI_Aint*)form_widen(slot, a, p, 1))
/* Whether this rank makes a call of v collective op (0-3) through its int
 * binding while the others use the large-count one (MPI-4 lets ranks mix
 * the two bindings of a collective): every other call of op at the odd
 * ranks of an intracommunicator (so never at world rank 0, whose calls the
 * summary counts), so that a rank's calls of one collective switch between
 * the bindings where the others' do not. */
static inline int form_int_binding(int op, MPI_Comm comm) {
  static unsigned calls[4];
  int inter = 1, rank = 0;
  if (comm == MPI_COMM_NULL || MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) return 0;
  MPI_Comm_rank(comm, &rank);
  return rank % 2 == 1 && calls[op]++ % 2 == 0;
}
static inline int form_allgatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int* rc, const int* d,
                                  MPI_Datatype rt, MPI_Comm comm) {
  const int p = form_size(comm, 1);
  if (form_int_binding(0, comm)) return FORM_CALL_V(Allgatherv, allgatherv, sb, sc, st, rb, rc, d, rt, comm);
  return FORM_CALL(Allgatherv, allgatherv, sb, sc, st, rb, FORM_COUNTS(0, rc, p), FORM_DISPLS(1, d, p), rt, comm);
}
static inline int form_reduce_scatter(const void* sb, void* rb, const int* rc, MPI_Datatype t, MPI_Op op,
                                      MPI_Comm comm) {
  return FORM_CALL(Reduce_scatter, reduce_scatter, sb, rb, FORM_COUNTS(0, rc, form_size(comm, 0)), t, op, comm);
}
static inline int form_gatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int* rc, const int* d,
                               MPI_Datatype rt, int root, MPI_Comm comm) {
  const int p = form_size(comm, 1);
  if (form_int_binding(1, comm)) return FORM_CALL_V(Gatherv, gatherv, sb, sc, st, rb, rc, d, rt, root, comm);
  return FORM_CALL(Gatherv, gatherv, sb, sc, st, rb, FORM_COUNTS(0, rc, p), FORM_DISPLS(1, d, p), rt, root, comm);
}
static inline int form_scatterv(const void* sb, const int* sc, const int* d, MPI_Datatype st, void* rb, int rc,
                                MPI_Datatype rt, int root, MPI_Comm comm) {
  const int p = form_size(comm, 1);
  if (form_int_binding(2, comm)) return FORM_CALL_V(Scatterv, scatterv, sb, sc, d, st, rb, rc, rt, root, comm);
  return FORM_CALL(Scatterv, scatterv, sb, FORM_COUNTS(0, sc, p), FORM_DISPLS(1, d, p), st, rb, rc, rt, root, comm);
}
static inline int form_alltoallv(const void* sb, const int* sc, const int* sd, MPI_Datatype st, void* rb, const int* rc,
                                 const int* rd, MPI_Datatype rt, MPI_Comm comm) {
  const int p = form_size(comm, 1);
  if (form_int_binding(3, comm)) return FORM_CALL_V(Alltoallv, alltoallv, sb, sc, sd, st, rb, rc, rd, rt, comm);
  return FORM_CALL(Alltoallv, alltoallv, sb, FORM_COUNTS(0, sc, p), FORM_DISPLS(1, sd, p), st, rb,
                   FORM_COUNTS(2, rc, p), FORM_DISPLS(3, rd, p), rt, comm);
}
#undef FORM_CALL_V
#define FORM_CALL_V(Blocking, nonblocking, ...) form_##nonblocking(__VA_ARGS__)
#endif

#define MPI_Bcast(...) FORM_CALL(Bcast, bcast, __VA_ARGS__)
#define MPI_Reduce(...) FORM_CALL(Reduce, reduce, __VA_ARGS__)
#define MPI_Allgather(...) FORM_CALL(Allgather, allgather, __VA_ARGS__)
#define MPI_Allgatherv(...) FORM_CALL_V(Allgatherv, allgatherv, __VA_ARGS__)
#define MPI_Reduce_scatter_block(...) FORM_CALL(Reduce_scatter_block, reduce_scatter_block, __VA_ARGS__)
#define MPI_Reduce_scatter(...) FORM_CALL_V(Reduce_scatter, reduce_scatter, __VA_ARGS__)
#define MPI_Allreduce(...) FORM_CALL(Allreduce, allreduce, __VA_ARGS__)
#define MPI_Gather(...) FORM_CALL(Gather, gather, __VA_ARGS__)
#define MPI_Gatherv(...) FORM_CALL_V(Gatherv, gatherv, __VA_ARGS__)
#define MPI_Scatter(...) FORM_CALL(Scatter, scatter, __VA_ARGS__)
#define MPI_Scatterv(...) FORM_CALL_V(Scatterv, scatterv, __VA_ARGS__)
#define MPI_Alltoall(...) FORM_CALL(Alltoall, alltoall, __VA_ARGS__)
#define MPI_Alltoallv(...) FORM_CALL_V(Alltoallv, alltoallv, __VA_ARGS__)
#define MPI_Scan(...) FORM_CALL(Scan, scan, __VA_ARGS__)
#define MPI_Exscan(...) FORM_CALL(Exscan, exscan, __VA_ARGS__)

/* "MPI_Bcast" as this form's name: "MPI_Ibcast" or "MPI_Bcast_init", with
 * PLAIN_LARGE_COUNT "MPI_Bcast_c", "MPI_Ibcast_c" or "MPI_Bcast_init_c". */
static inline const char* op_label(const char* blocking) {
  const char* large = "";
#ifdef PLAIN_LARGE_COUNT
  large = "_c";
#endif
  static char out[64];
  if (PLAIN_REQUEST_FORM == 1)
    snprintf(out, sizeof out, "MPI_I%c%s%s", tolower((unsigned char)blocking[4]), blocking + 5, large);
  else if (PLAIN_REQUEST_FORM == 2)
    snprintf(out, sizeof out, "%s_init%s", blocking, large);
  else
    snprintf(out, sizeof out, "%s%s", blocking, large);
  return out;
}

#endif
