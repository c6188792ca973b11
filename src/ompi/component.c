/* mca_coll_optcoll: optcoll as an Open MPI 4.1 coll component, so that
 * every binding of MPI (C, Fortran's mpif.h / use mpi / use mpi_f08,
 * mpi4py) reaches optcoll, not only C programs under the drop-in's
 * LD_PRELOAD (Open MPI's Fortran bindings call PMPI_* directly).
 *
 * How it sits in Open MPI: on every intracommunicator of more than one
 * process the module (priority coll_optcoll_priority, above tuned's)
 * takes the collectives of collectives.def, blocking, nonblocking and persistent.
 * At enable time it saves the entries of the modules below it (and keeps
 * those modules alive); a call optcoll does not take (its policy says
 * native, or the arguments are not optcoll's: bridge.cpp, the drop-in's
 * shapes) goes to them, as do all collectives issued while this thread is
 * inside optcoll (its setup on a new communicator, its agreements), and a
 * communicator created meanwhile (optcoll's own duplicate) does not get
 * the module. Point-to-point goes through the PML (request.c). */
#define _GNU_SOURCE
#include "ompi_config.h"

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/base/base.h"
#include "ompi/mca/coll/coll.h"
#include "opal/mca/base/mca_base_var.h"

typedef struct {
  mca_coll_base_module_t super;
  mca_coll_base_comm_coll_t below; /* the entries below this module, saved at enable */
} optcoll_module_t;

static void module_construct(optcoll_module_t* m) {
  memset(&m->below, 0, sizeof(m->below));
}

/* The saved modules of op `field`'s three forms. */
#define OPTCOLL_OMPI_FORMS(X, field) X(field) X(i##field) X(field##_init)

static void module_destruct(optcoll_module_t* m) {
#define RELEASE(f) \
  if (m->below.coll_##f##_module != NULL) OBJ_RELEASE(m->below.coll_##f##_module);
#define OPTCOLL_COLLECTIVE(Name, field, collective, shape, init) OPTCOLL_OMPI_FORMS(RELEASE, field)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#undef RELEASE
}

OBJ_CLASS_INSTANCE(optcoll_module_t, mca_coll_base_module_t, module_construct, module_destruct);

/* ---- The natives: the module below (saved at enable). The module of a
 * collective on comm is this component's (its entry is comm's). ---- */
#define BELOW(comm, f) (&((optcoll_module_t*)(comm)->c_coll->coll_##f##_module)->below)
#define ARGS_MODULE(...) (__VA_ARGS__, below_module)
#define ARGS_REQUEST_MODULE(...) (__VA_ARGS__, request, below_module)
#define ARGS_INFO_REQUEST_MODULE(...) (__VA_ARGS__, info, request, below_module)

#define OPTCOLL_COLLECTIVE(Name, field, collective, shape, init)                                                                      \
  int optcoll_ompi_native_##Name OPTCOLL_PARAMS(shape, c_int) {                                                   \
    const mca_coll_base_comm_coll_t* b = BELOW(comm, field);                                                     \
    mca_coll_base_module_t* below_module = b->coll_##field##_module;                                             \
    return b->coll_##field OPTCOLL_OMPI_EXPAND(ARGS_MODULE, OPTCOLL_ARGS(shape));                          \
  }                                                                                                              \
  int optcoll_ompi_native_I##field OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_WITH_REQUEST, OPTCOLL_PARAMS(shape, c_int)) { \
    const mca_coll_base_comm_coll_t* b = BELOW(comm, i##field);                                                  \
    mca_coll_base_module_t* below_module = b->coll_i##field##_module;                                            \
    return b->coll_i##field OPTCOLL_OMPI_EXPAND(ARGS_REQUEST_MODULE, OPTCOLL_ARGS(shape));                 \
  }                                                                                                              \
  int optcoll_ompi_native_##Name##_init OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_WITH_INFO_REQUEST,                      \
                                                            OPTCOLL_PARAMS(shape, c_int)) {                       \
    const mca_coll_base_comm_coll_t* b = BELOW(comm, field##_init);                                              \
    mca_coll_base_module_t* below_module = b->coll_##field##_init_module;                                        \
    return b->coll_##field##_init OPTCOLL_OMPI_EXPAND(ARGS_INFO_REQUEST_MODULE, OPTCOLL_ARGS(shape));      \
  }
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE

/* ---- Who calls: the operation's own MPI binding (the program's call)
 * or Open MPI itself. Open MPI's own collectives (communicator
 * construction: an Iallreduce run from its progress engine, in place
 * without MPI_IN_PLACE; the Bcast of MPI_Intercomm_create) go to the
 * module below: optcoll's setup of a new communicator (its duplicate)
 * cannot run inside them. A caller is the binding when the return address
 * lies inside the exported function MPI_<op> (or PMPI_<op>, MPIX_<op>,
 * PMPIX_<op>), which calls the module's entry itself; each entry
 * remembers the last binding address it saw. ---- */
static int binding_address(void* ra, const char* op) {
  Dl_info info;
  const ElfW(Sym)* sym = NULL;
  if (dladdr1(ra, &info, (void**)&sym, RTLD_DL_SYMENT) == 0 || info.dli_sname == NULL || sym == NULL) return 0;
  const char* name = info.dli_sname[0] == 'P' ? info.dli_sname + 1 : info.dli_sname;
  if (strncmp(name, "MPI_", 4) == 0)
    name += 4;
  else if (strncmp(name, "MPIX_", 5) == 0)
    name += 5;
  else
    return 0;
  const uintptr_t start = (uintptr_t)info.dli_saddr;
  return strcmp(name, op) == 0 && (uintptr_t)ra >= start && (uintptr_t)ra < start + sym->st_size;
}
/* The binding's return address, once found, is kept (process-wide: code
 * addresses are every thread's; relaxed, as any value it holds is one that
 * binding_address() accepted). */
#define FROM_BINDING(op)                                                          \
  static _Atomic(void*) binding_ra = NULL;                                        \
  void* const ra = __builtin_return_address(0);                                   \
  void* const known = atomic_load_explicit(&binding_ra, memory_order_relaxed);    \
  const int from_binding = ra == known || binding_address(ra, op);                \
  if (from_binding && ra != known) atomic_store_explicit(&binding_ra, ra, memory_order_relaxed);

/* ---- The module's entries: optcoll's side (bridge.cpp), for the program's calls. ---- */
#define WITH_MODULE(...) (__VA_ARGS__, mca_coll_base_module_t * module)
#define WITH_REQUEST_MODULE(...) (__VA_ARGS__, MPI_Request * request, mca_coll_base_module_t * module)
#define WITH_INFO_REQUEST_MODULE(...) \
  (__VA_ARGS__, MPI_Info info, MPI_Request * request, mca_coll_base_module_t * module)
#define OPTCOLL_COLLECTIVE(Name, field, collective, shape, init)                                                                           \
  static int entry_##field OPTCOLL_OMPI_EXPAND(WITH_MODULE, OPTCOLL_PARAMS(shape, c_int)) {                            \
    (void)module;                                                                                                     \
    FROM_BINDING(#Name)                                                                                               \
    if (!from_binding) return optcoll_ompi_native_##Name OPTCOLL_ARGS(shape);                                   \
    return optcoll_ompi_##Name OPTCOLL_ARGS(shape);                                                             \
  }                                                                                                                   \
  static int entry_i##field OPTCOLL_OMPI_EXPAND(WITH_REQUEST_MODULE, OPTCOLL_PARAMS(shape, c_int)) {                   \
    (void)module;                                                                                                     \
    FROM_BINDING("I" #field)                                                                                          \
    if (!from_binding)                                                                                                \
      return optcoll_ompi_native_I##field OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_ARGS_REQUEST, OPTCOLL_ARGS(shape));  \
    return optcoll_ompi_I##field OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_ARGS_REQUEST, OPTCOLL_ARGS(shape));           \
  }                                                                                                                   \
  static int entry_##field##_init OPTCOLL_OMPI_EXPAND(WITH_INFO_REQUEST_MODULE, OPTCOLL_PARAMS(shape, c_int)) {        \
    (void)module;                                                                                                     \
    FROM_BINDING(#Name "_init")                                                                                       \
    if (!from_binding)                                                                                                \
      return optcoll_ompi_native_##Name##_init OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_ARGS_INFO_REQUEST,                    \
                                                                   OPTCOLL_ARGS(shape));                        \
    return optcoll_ompi_##Name##_init OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_ARGS_INFO_REQUEST, OPTCOLL_ARGS(shape)); \
  }
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE

/* Saves what lies below for each form the module takes; a form with
 * nothing below is left to Open MPI (the module does not take it). */
static int module_enable(mca_coll_base_module_t* module, struct ompi_communicator_t* comm) {
  optcoll_module_t* m = (optcoll_module_t*)module;
#define SAVE(f)                                                                    \
  if (comm->c_coll->coll_##f == NULL || comm->c_coll->coll_##f##_module == NULL) { \
    module->coll_##f = NULL;                                                       \
  } else {                                                                         \
    m->below.coll_##f = comm->c_coll->coll_##f;                                    \
    m->below.coll_##f##_module = comm->c_coll->coll_##f##_module;                  \
    OBJ_RETAIN(m->below.coll_##f##_module);                                        \
  }
#define OPTCOLL_COLLECTIVE(Name, field, collective, shape, init) OPTCOLL_OMPI_FORMS(SAVE, field)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#undef SAVE
  return OMPI_SUCCESS;
}

/* ---- The component ---- */
static int g_priority = 40;
/* coll_optcoll_<op>: the OPTCOLL_<OP> choices as MCA parameters. */
#define OPTCOLL_OMPI_CHOICES(X)               \
  X(bcast, "OPTCOLL_BCAST")                   \
  X(reduce, "OPTCOLL_REDUCE")                 \
  X(allgather, "OPTCOLL_ALLGATHER")           \
  X(reduce_scatter, "OPTCOLL_REDUCE_SCATTER") \
  X(allreduce, "OPTCOLL_ALLREDUCE")           \
  X(gather, "OPTCOLL_GATHER")                 \
  X(scatter, "OPTCOLL_SCATTER")               \
  X(alltoall, "OPTCOLL_ALLTOALL")             \
  X(alltoallv, "OPTCOLL_ALLTOALLV")           \
  X(scan, "OPTCOLL_SCAN")                     \
  X(exscan, "OPTCOLL_EXSCAN")
#define CHOICE_VAR(name, env) static char* g_choice_##name = NULL;
OPTCOLL_OMPI_CHOICES(CHOICE_VAR)
#undef CHOICE_VAR

static int component_register(void);
static int component_open(void);
static int component_close(void);
static int init_query(bool enable_progress_threads, bool enable_mpi_threads);
static mca_coll_base_module_t* comm_query(struct ompi_communicator_t* comm, int* priority);

OMPI_DECLSPEC const mca_coll_base_component_2_0_0_t mca_coll_optcoll_component = {
    .collm_version =
        {
            MCA_COLL_BASE_VERSION_2_0_0,
            .mca_component_name = "optcoll",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION),
            .mca_open_component = component_open,
            .mca_close_component = component_close,
            .mca_register_component_params = component_register,
        },
    .collm_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
    .collm_init_query = init_query,
    .collm_comm_query = comm_query,
};

static int component_register(void) {
  (void)mca_base_component_var_register(&mca_coll_optcoll_component.collm_version, "priority",
                                        "Priority of the optcoll coll component (tuned: 30)", MCA_BASE_VAR_TYPE_INT,
                                        NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY, &g_priority);
#define CHOICE_REGISTER(name, env)                                                                                 \
  g_choice_##name = NULL;                                                                                          \
  (void)mca_base_component_var_register(                                                                           \
      &mca_coll_optcoll_component.collm_version, #name,                                                            \
      "optcoll's choice for " #name " (as " env "): optcoll, native, auto or a plan name; unset: " env " or auto", \
      MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY, &g_choice_##name);
  OPTCOLL_OMPI_CHOICES(CHOICE_REGISTER)
#undef CHOICE_REGISTER
  return OMPI_SUCCESS;
}

static int component_open(void) {
#define CHOICE_SET(name, env) optcoll_ompi_set_choice(env, g_choice_##name);
  OPTCOLL_OMPI_CHOICES(CHOICE_SET)
#undef CHOICE_SET
  optcoll_ompi_setup();
  return OMPI_SUCCESS;
}

static int component_close(void) {
  optcoll_ompi_request_close();
  return OMPI_SUCCESS;
}

static int init_query(bool enable_progress_threads, bool enable_mpi_threads) {
  (void)enable_progress_threads;
  (void)enable_mpi_threads;
  return OMPI_SUCCESS;
}

static mca_coll_base_module_t* comm_query(struct ompi_communicator_t* comm, int* priority) {
  /* Intercommunicators, single processes, a negative priority, and
   * communicators made while optcoll runs (its own) are not taken. */
  if (OMPI_COMM_IS_INTER(comm) || ompi_comm_size(comm) < 2 || g_priority < 0 || optcoll_ompi_inside()) return NULL;
  optcoll_module_t* m = OBJ_NEW(optcoll_module_t);
  if (m == NULL) return NULL;
  *priority = g_priority;
  m->super.coll_module_enable = module_enable;
#define ENTRY(f) m->super.coll_##f = entry_##f;
#define OPTCOLL_COLLECTIVE(Name, field, collective, shape, init) OPTCOLL_OMPI_FORMS(ENTRY, field)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#undef ENTRY
  return &m->super;
}
