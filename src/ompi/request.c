/* The component's requests and point-to-point, on Open MPI's side.
 *
 * A nonblocking or persistent collective that optcoll runs is an Open MPI
 * collective request (OMPI_REQUEST_COLL) carrying optcoll's run (the
 * bridge's entry): MPI_Wait / MPI_Test and the rest handle it as they
 * handle Open MPI's own, and optcoll's runs advance in Open MPI's progress
 * loop (a callback registered with the first request), which completes
 * the carrier when the run has finished. MPI_Start starts the run again;
 * freeing the carrier frees the run (an active one is completed first).
 *
 * Point-to-point goes to the PML, as in Open MPI's own collectives, on
 * optcoll's private duplicate of the communicator, with tags of the
 * component's own: negative (never matched by MPI_ANY_TAG or a program's
 * message), in the range Open MPI reserves for hcoll at the far end of the
 * collective tags (no other component uses them on optcoll's duplicate). */
#include "ompi_config.h"

#include <limits.h>

#include "bridge.h"
#include "ompi/communicator/communicator.h"
#include "ompi/errhandler/errcode-internal.h"
#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/request/request.h"
#include "opal/runtime/opal_progress.h"

/* Open MPI 4.1's bindings take every collective request for a base
 * nonblocking one, ompi_coll_base_nbc_request_t (they keep the call's
 * datatypes and operator in it until completion, and chain their callback
 * in front of the request's): the carrier starts with that layout, the
 * request and then its fields, spelled out here because the header that
 * declares it (coll_base_util.h) includes Fortran headers that Debian
 * does not install. The bridge's entry follows. */
typedef struct {
  ompi_request_t super;
  struct {
    union {
      ompi_request_complete_fn_t req_complete_cb;
      ompi_request_free_fn_t req_free;
    } cb;
    void* req_complete_cb_data;
    opal_object_t* objs[2];
  } base;
  void* entry;
} optcoll_request_t;

static void request_construct(optcoll_request_t* r) {
  r->base.cb.req_complete_cb = NULL;
  r->base.req_complete_cb_data = NULL;
  r->base.objs[0] = r->base.objs[1] = NULL;
  r->entry = NULL;
}

OBJ_CLASS_INSTANCE(optcoll_request_t, ompi_request_t, request_construct, NULL);

static int progress_callback(void) {
  return optcoll_ompi_progress();
}

static int request_start(size_t count, ompi_request_t** requests) {
  for (size_t i = 0; i < count; ++i) {
    optcoll_request_t* r = (optcoll_request_t*)requests[i];
    r->super.req_complete = REQUEST_PENDING;
    r->super.req_state = OMPI_REQUEST_ACTIVE;
    r->super.req_status.MPI_ERROR = MPI_SUCCESS;
    const int rc = optcoll_ompi_entry_start(r->entry);
    if (rc != MPI_SUCCESS) return rc;
  }
  return OMPI_SUCCESS;
}

static int request_free(ompi_request_t** request) {
  optcoll_request_t* r = (optcoll_request_t*)*request;
  optcoll_ompi_entry_free(r->entry); /* (completes an active run first) */
  OMPI_REQUEST_FINI(&r->super);
  OBJ_RELEASE(r);
  *request = MPI_REQUEST_NULL;
  return OMPI_SUCCESS;
}

static int request_cancel(ompi_request_t* request, int complete) {
  (void)request;
  (void)complete;
  return MPI_ERR_REQUEST; /* collectives cannot be cancelled */
}

static int g_registered = 0; /* the progress callback */

void optcoll_ompi_request_close(void) {
  if (__atomic_exchange_n(&g_registered, 0, __ATOMIC_ACQ_REL)) opal_progress_unregister(progress_callback);
}

MPI_Request optcoll_ompi_request_new(MPI_Comm comm, int persistent, void* entry) {
  if (!__atomic_load_n(&g_registered, __ATOMIC_ACQUIRE) && !__atomic_exchange_n(&g_registered, 1, __ATOMIC_ACQ_REL))
    opal_progress_register(progress_callback);
  optcoll_request_t* r = OBJ_NEW(optcoll_request_t);
  if (r == NULL) return MPI_REQUEST_NULL;
  OMPI_REQUEST_INIT(&r->super, persistent != 0);
  r->super.req_type = OMPI_REQUEST_COLL;
  r->super.req_mpi_object.comm = comm;
  r->super.req_start = request_start;
  r->super.req_free = request_free;
  r->super.req_cancel = request_cancel;
  r->super.req_status.MPI_ERROR = MPI_SUCCESS;
  r->super.req_status.MPI_SOURCE = MPI_ANY_SOURCE;
  r->super.req_status.MPI_TAG = MPI_ANY_TAG;
  r->super.req_status._cancelled = 0;
  r->super.req_status._ucount = 0;
  r->entry = entry;
  if (!persistent) r->super.req_state = OMPI_REQUEST_ACTIVE; /* started, pending */
  return &r->super;
}

void optcoll_ompi_request_complete(MPI_Request request, int error) {
  request->req_status.MPI_ERROR = error;
  ompi_request_complete(request, true);
}

void optcoll_ompi_retain(void* object) {
  OBJ_RETAIN((opal_object_t*)object);
}

void optcoll_ompi_release(void* object) {
  opal_object_t* o = (opal_object_t*)object;
  OBJ_RELEASE(o);
}

/* ---- Point-to-point through the PML ---- */
static int g_first_tag = 0;

static int tag_of(int tag) {
  /* optcoll's tags are small offsets from its first; below it, as given. */
  return tag < g_first_tag ? tag : MCA_COLL_BASE_TAG_HCOLL_END + 1 + (tag - g_first_tag);
}

static int mpi_code(int rc) {
  return rc == OMPI_SUCCESS ? MPI_SUCCESS : ompi_errcode_get_mpi_code(rc);
}

void optcoll_ompi_pml_tags(int first_tag) {
  g_first_tag = first_tag;
}

int optcoll_ompi_pml_isend(const void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                           MPI_Request* r) {
  return mpi_code(
      MCA_PML_CALL(isend(buf, (size_t)count, type, peer, tag_of(tag), MCA_PML_BASE_SEND_STANDARD, comm, r)));
}

int optcoll_ompi_pml_irecv(void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request* r) {
  return mpi_code(MCA_PML_CALL(irecv(buf, (size_t)count, type, peer, tag_of(tag), comm, r)));
}

int optcoll_ompi_pml_send(const void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm) {
  return mpi_code(MCA_PML_CALL(send(buf, (size_t)count, type, peer, tag_of(tag), MCA_PML_BASE_SEND_STANDARD, comm)));
}

int optcoll_ompi_pml_recv(void* buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Status* st) {
  return mpi_code(MCA_PML_CALL(recv(buf, (size_t)count, type, peer, tag_of(tag), comm, st)));
}

int optcoll_ompi_pml_sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                              int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* st) {
  ompi_request_t* r = MPI_REQUEST_NULL;
  int rc = MCA_PML_CALL(irecv(rbuf, (size_t)rcount, rtype, source, tag_of(rtag), comm, &r));
  if (rc != OMPI_SUCCESS) return mpi_code(rc);
  rc = MCA_PML_CALL(send(sbuf, (size_t)scount, stype, dest, tag_of(stag), MCA_PML_BASE_SEND_STANDARD, comm));
  if (rc != OMPI_SUCCESS) ompi_request_cancel(r); /* the receive would never complete */
  const int wrc = ompi_request_wait(&r, st);
  return mpi_code(rc != OMPI_SUCCESS ? rc : wrc);
}
