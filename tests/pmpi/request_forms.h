/* Compiles an ordinary MPI program's blocking collectives as their
 * nonblocking (PLAIN_REQUEST_FORM 1: MPI_I<op> then MPI_Wait) or persistent
 * (2: MPI_<Op>_init, MPI_Start, MPI_Wait, MPI_Request_free; Open MPI 4.1:
 * MPIX_<Op>_init) forms, and with PLAIN_LARGE_COUNT (MPI-4) the collectives
 * without count arrays as their large-count bindings (MPI_<Op>_c,
 * MPI_I<op>_c, MPI_<Op>_init_c; form 0: blocking), so that
 * plain_collectives.c tests them through the drop-in with the same cases
 * and the same oracle (its run without optcoll). An error of the starting
 * call is returned as the blocking call would return it. op_label() gives
 * the name the drop-in counts a call under. */
#ifndef OPTCOLL_TEST_REQUEST_FORMS_H
#define OPTCOLL_TEST_REQUEST_FORMS_H

#include <ctype.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
/* MPI_Reduce_scatter in its large-count forms: the int recvcounts widened
 * to MPI_Count (a comm's size of entries; NULL stays NULL), in static
 * storage that outlives the call's completion (form_complete). */
static int form_reduce_scatter(const void* sb, void* rb, const int* rc, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  static MPI_Count* wide = NULL;
  static int room = 0;
  int p = 0;
  const MPI_Count* counts = NULL;
  if (rc != NULL && comm != MPI_COMM_NULL && MPI_Comm_size(comm, &p) == MPI_SUCCESS) {
    if (room < p) {
      free(wide);
      wide = malloc(sizeof(MPI_Count) * (size_t)p);
      room = p;
    }
    for (int i = 0; i < p; ++i) wide[i] = rc[i];
    counts = wide;
  }
  return FORM_CALL(Reduce_scatter, reduce_scatter, sb, rb, counts, t, op, comm);
}
#endif

#define MPI_Bcast(...) FORM_CALL(Bcast, bcast, __VA_ARGS__)
#define MPI_Reduce(...) FORM_CALL(Reduce, reduce, __VA_ARGS__)
#define MPI_Allgather(...) FORM_CALL(Allgather, allgather, __VA_ARGS__)
#define MPI_Allgatherv(...) FORM_CALL_V(Allgatherv, allgatherv, __VA_ARGS__)
#define MPI_Reduce_scatter_block(...) FORM_CALL(Reduce_scatter_block, reduce_scatter_block, __VA_ARGS__)
#ifdef PLAIN_LARGE_COUNT
#define MPI_Reduce_scatter(...) form_reduce_scatter(__VA_ARGS__)
#else
#define MPI_Reduce_scatter(...) FORM_CALL_V(Reduce_scatter, reduce_scatter, __VA_ARGS__)
#endif
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
 * PLAIN_LARGE_COUNT "MPI_Bcast_c", "MPI_Ibcast_c" or "MPI_Bcast_init_c"
 * (the collectives with local count or displacement arrays keep the int
 * bindings: the drop-in leaves their _c forms to MPI). */
static const char* op_label(const char* blocking) {
  static const char* const local_arrays[] = {"MPI_Allgatherv", "MPI_Gatherv", "MPI_Scatterv", "MPI_Alltoallv"};
  int large = 0;
#ifdef PLAIN_LARGE_COUNT
  large = 1;
  for (size_t i = 0; i < sizeof local_arrays / sizeof *local_arrays; ++i)
    if (strcmp(blocking, local_arrays[i]) == 0) large = 0;
#else
  (void)local_arrays;
#endif
  static char out[64];
  if (PLAIN_REQUEST_FORM == 1)
    snprintf(out, sizeof out, "MPI_I%c%s%s", tolower((unsigned char)blocking[4]), blocking + 5, large ? "_c" : "");
  else if (PLAIN_REQUEST_FORM == 2)
    snprintf(out, sizeof out, "%s_init%s", blocking, large ? "_c" : "");
  else
    snprintf(out, sizeof out, "%s%s", blocking, large ? "_c" : "");
  return out;
}

#endif
