/* Between the component's Open MPI side (C: component.c, request.c, which
 * include Open MPI's internal headers) and optcoll's side (C++:
 * bridge.cpp, which includes only <mpi.h>). Open MPI's handles are the
 * internal objects themselves (MPI_Comm is struct ompi_communicator_t *,
 * ...), so both sides pass them as they are. */
#ifndef OPTCOLL_OMPI_BRIDGE_H
#define OPTCOLL_OMPI_BRIDGE_H

#include <mpi.h>

#include "mpi/api/signatures.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OPTCOLL_OMPI_EXPAND(m, args) m args
#define OPTCOLL_OMPI_WITH_REQUEST(...) (__VA_ARGS__, MPI_Request * request)
#define OPTCOLL_OMPI_WITH_INFO_REQUEST(...) (__VA_ARGS__, MPI_Info info, MPI_Request * request)
#define OPTCOLL_OMPI_ARGS_REQUEST(...) (__VA_ARGS__, request)
#define OPTCOLL_OMPI_ARGS_INFO_REQUEST(...) (__VA_ARGS__, info, request)

/* optcoll_ompi_<Name>, _I<field>, _<Name>_init (bridge.cpp): the call
 * through optcoll's policy, shapes and plans; what optcoll does not take
 * goes to optcoll_ompi_native_* (component.c): the module below. MPI
 * error codes. */
#define OPTCOLL_COLLECTIVE(Name, field, collective, shape, init)                                                    \
  int optcoll_ompi_##Name OPTCOLL_PARAMS(shape, c_int);                                                             \
  int optcoll_ompi_I##field OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_WITH_REQUEST, OPTCOLL_PARAMS(shape, c_int));           \
  int optcoll_ompi_##Name##_init OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_WITH_INFO_REQUEST, OPTCOLL_PARAMS(shape, c_int)); \
  int optcoll_ompi_native_##Name OPTCOLL_PARAMS(shape, c_int);                                                      \
  int optcoll_ompi_native_I##field OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_WITH_REQUEST, OPTCOLL_PARAMS(shape, c_int));    \
  int optcoll_ompi_native_##Name##_init OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_WITH_INFO_REQUEST,                         \
                                                            OPTCOLL_PARAMS(shape, c_int));
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE

/* bridge.cpp. Whether this thread is inside optcoll (then every
 * collective goes to the module below, and new communicators do not get
 * the component: optcoll's own duplicates and setup collectives). */
int optcoll_ompi_inside(void);
/* Once, when Open MPI opens the component: the PML transport, the MCA
 * choices (names[k] = value, NULL: unset) as OPTCOLL_* settings. */
void optcoll_ompi_setup(void);
void optcoll_ompi_set_choice(const char* env_name, const char* value);
/* Advances the running requests (opal_progress callback); how many completed. */
int optcoll_ompi_progress(void);
/* A request's carrier was started (persistent) or is freed. */
int optcoll_ompi_entry_start(void* entry);
void optcoll_ompi_entry_free(void* entry);

/* component.c / request.c: Open MPI's side. */
MPI_Request optcoll_ompi_request_new(MPI_Comm comm, int persistent, void* entry);
/* When Open MPI closes the component: the progress callback goes. */
void optcoll_ompi_request_close(void);
void optcoll_ompi_request_complete(MPI_Request request, int error);
void optcoll_ompi_retain(void* object);
void optcoll_ompi_release(void* object);
/* Point-to-point through the PML, optcoll's tags (from first_tag on)
 * mapped into the component's own range. */
void optcoll_ompi_pml_tags(int first_tag);
int optcoll_ompi_pml_isend(const void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                           MPI_Request* r);
int optcoll_ompi_pml_irecv(void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request* r);
int optcoll_ompi_pml_send(const void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm);
int optcoll_ompi_pml_recv(void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Status* st);
int optcoll_ompi_pml_sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                              int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* st);

#ifdef __cplusplus
}
#endif

#endif
