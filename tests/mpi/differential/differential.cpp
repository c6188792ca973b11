// Randomized differential driver: a long random sequence of collective calls,
// each issued through optcoll and through the native MPI collective on the
// same inputs, the results compared bitwise (holes of derived datatypes
// included, and the send buffers, which must stay unchanged).
//
//   differential [--seed S|fresh] [--calls N] [--max-count C] [--only I] [--inject-fault I] [--inject-error I]
//                [--call-timeout SECONDS] [--slow SECONDS] [--trace 1]
//
// --seed fresh draws a new seed (rank 0's, from std::random_device); the
// seed and the command that repeats the run are printed first.
// Per call (all ranks draw the same numbers, see differential.hpp): the
// collective, a communicator (MPI_COMM_WORLD, a dup, splits by parity, by
// thirds with reversed keys, by random colours, a random reordering of the
// ranks; one is freed and recreated now and then), a datatype (predefined,
// contiguous, strided vectors, a struct with gaps, the 2x2 matrix), an
// operator valid for it (predefined, a commutative user sum, the
// non-commutative matrix product, whose native result fixes the rank order),
// a count (0, 1, primes, occasionally large), a root, MPI_IN_PLACE, and the
// C or C++ API (the latter with a random registry algorithm and block count).
// Data are integers or integer-valued doubles, so every order of
// combination gives the same bits, or, for about half the calls on types
// with floating-point fields, real values (Call::real): then reductions are
// compared with native MPI within a rounding bound, and Allreduce's ranks
// with each other bit for bit (differential_reductions.cpp).
//
// On a mismatch every rank concerned prints the call, the seed and the
// command that repeats the run; the exit code is 1 at every rank. A call
// that does not return within --call-timeout seconds (default 120: optcoll
// failing at some ranks and waiting for them at others) makes the rank
// print the call and that command and exit with code 3, which ends the run.
// --inject-fault I flips a byte of optcoll's result of call I,
// --inject-error I passes MPI_COMM_NULL to optcoll at the last rank of call
// I's communicator (the self-tests: CTest checks both are reported).
#include <mpi.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "differential.hpp"
#include "differential_colls.hpp"

namespace optcoll::differential {
namespace {

struct Args {
  std::uint64_t seed = 1;
  bool fresh = false;  // --seed fresh: seed drawn at rank 0
  std::int64_t calls = 200;
  std::int64_t max_count = 1 << 17;  // elements of a "large" count
  std::int64_t only = -1;            // run just this call (the others are drawn, not run)
  std::int64_t inject = -1;          // corrupt optcoll's result of this call (self-test)
  std::int64_t inject_error = -1;    // optcoll fails at one rank only in this call (self-test)
  int call_timeout = 120;            // seconds before a call counts as hanging
  double slow = 0;                   // rank 0 prints calls slower than this (seconds), 0: none
  bool trace = false;                // rank 0 prints every call before running it
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const char* v = argv[i + 1];
    if (k == "--seed" && std::string(v) == "fresh")
      a.fresh = true;
    else if (k == "--seed")
      a.seed = std::strtoull(v, nullptr, 0);
    else if (k == "--calls")
      a.calls = std::atoll(v);
    else if (k == "--max-count")
      a.max_count = std::atoll(v);
    else if (k == "--only")
      a.only = std::atoll(v);
    else if (k == "--inject-fault")
      a.inject = std::atoll(v);
    else if (k == "--inject-error")
      a.inject_error = std::atoll(v);
    else if (k == "--call-timeout")
      a.call_timeout = std::atoi(v);
    else if (k == "--slow")
      a.slow = std::atof(v);
    else if (k == "--trace")
      a.trace = std::atoi(v) != 0;
    else {
      std::fprintf(stderr, "differential: unknown option %s\n", k.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  return a;
}

// The communicators, re-drawn from the shared stream when recreated.
class Comms {
 public:
  static constexpr int kKinds = 6;

  explicit Comms(Rng& rng) {
    MPI_Comm_size(MPI_COMM_WORLD, &p_);
    MPI_Comm_rank(MPI_COMM_WORLD, &r_);
    for (int k = 0; k < kKinds; ++k) comms_.push_back(make(k, rng));
  }
  ~Comms() {
    for (MPI_Comm& c : comms_)
      if (c != MPI_COMM_WORLD) MPI_Comm_free(&c);
  }
  Comms(const Comms&) = delete;
  Comms& operator=(const Comms&) = delete;

  MPI_Comm at(int k) const { return comms_[static_cast<std::size_t>(k)]; }
  static const char* name(int k) {
    static const char* const names[kKinds] = {
        "world", "dup", "split-parity", "split-thirds-reversed", "split-random-colours", "reordered"};
    return names[k];
  }
  // Frees and recreates communicator k (collective over MPI_COMM_WORLD).
  void recreate(int k, Rng& rng) {
    MPI_Comm& c = comms_[static_cast<std::size_t>(k)];
    if (c != MPI_COMM_WORLD) MPI_Comm_free(&c);
    c = make(k, rng);
  }

 private:
  MPI_Comm make(int kind, Rng& rng) {
    MPI_Comm c = MPI_COMM_NULL;
    std::vector<int> colour(static_cast<std::size_t>(p_));
    std::vector<int> key(static_cast<std::size_t>(p_));
    for (int i = 0; i < p_; ++i) {
      colour[static_cast<std::size_t>(i)] = static_cast<int>(rng.below(3));
      key[static_cast<std::size_t>(i)] = i;
    }
    for (int i = p_ - 1; i > 0; --i)
      std::swap(key[static_cast<std::size_t>(i)], key[static_cast<std::size_t>(rng.below(i + 1))]);
    const auto me = static_cast<std::size_t>(r_);
    switch (kind) {
      case 0:
        c = MPI_COMM_WORLD;
        break;
      case 1:
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        break;
      case 2:
        MPI_Comm_split(MPI_COMM_WORLD, r_ % 2, r_, &c);
        break;
      case 3:
        MPI_Comm_split(MPI_COMM_WORLD, r_ * 3 / p_, p_ - r_, &c);
        break;
      case 4:
        MPI_Comm_split(MPI_COMM_WORLD, colour[me], key[me], &c);
        break;
      default: {  // every rank, in a random order, through a group
        MPI_Group world = MPI_GROUP_NULL;
        MPI_Group perm = MPI_GROUP_NULL;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, p_, key.data(), &perm);
        MPI_Comm_create(MPI_COMM_WORLD, perm, &c);
        MPI_Group_free(&perm);
        MPI_Group_free(&world);
      }
    }
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return c;
  }

  int p_ = 1;
  int r_ = 0;
  std::vector<MPI_Comm> comms_;
};

// The command that repeats the run (or, with only >= 0, one call of it).
std::string repeat_command(const Args& a, const char* program, int p, std::int64_t only) {
  std::string s = "mpiexec -n " + std::to_string(p) + " " + program + " --seed " + std::to_string(a.seed) +
                  " --calls " + std::to_string(a.calls) + " --max-count " + std::to_string(a.max_count);
  if (only >= 0) s += " --only " + std::to_string(only);
  return s;
}

// The watchdog: SIGALRM after call_timeout seconds prints the message
// prepared before the call (write() is async-signal-safe) and ends the
// process; mpiexec then ends the others.
char g_hang_message[2048];
std::size_t g_hang_length = 0;

extern "C" void on_hang(int) {
  const ssize_t ignored = write(STDERR_FILENO, g_hang_message, g_hang_length);
  (void)ignored;
  _exit(3);
}

void arm_watchdog(const Args& a, const char* program, int p, int world_rank, std::int64_t i, const char* coll,
                  const char* comm) {
  if (a.call_timeout <= 0) return;
  const int n = std::snprintf(g_hang_message, sizeof g_hang_message,
                              "differential: HANG seed=%llu call=%lld (%s on %s) did not finish within %d s at world "
                              "rank %d; repeat with: %s\n",
                              static_cast<unsigned long long>(a.seed), static_cast<long long>(i), coll, comm,
                              a.call_timeout, world_rank, repeat_command(a, program, p, i).c_str());
  g_hang_length = std::min(sizeof g_hang_message - 1, static_cast<std::size_t>(std::max(n, 0)));
  alarm(static_cast<unsigned>(a.call_timeout));
}

// Rank 0's fresh seed, at every rank.
std::uint64_t fresh_seed() {
  std::uint64_t s = 0;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::random_device rd;
    s = (std::uint64_t{rd()} << 32 | rd()) % 1000000000000ULL;  // short enough to type
  }
  MPI_Bcast(&s, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return s;
}

std::int64_t draw_count(Rng& rng, std::int64_t max_count) {
  static const std::int64_t primes[] = {2, 3, 5, 7, 11, 13, 17, 31, 61, 127, 251, 509, 1021, 2039, 4093, 8191};
  const std::int64_t x = rng.below(100);
  if (x < 6) return 0;
  if (x < 16) return 1;
  if (x < 97) return primes[rng.below(std::size(primes))];
  return std::max<std::int64_t>(1, max_count - rng.below(64));  // large (a prime or not)
}

}  // namespace

int run(int argc, char** argv) {
  Args a = parse(argc, argv);
  int p = 1;
  int rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (a.fresh) a.seed = fresh_seed();
  if (rank == 0) {
    std::printf("differential: seed=%llu%s np=%d calls=%lld; repeat with: %s\n",
                static_cast<unsigned long long>(a.seed), a.fresh ? " (fresh)" : "", p, static_cast<long long>(a.calls),
                repeat_command(a, argv[0], p, -1).c_str());
    std::fflush(stdout);
  }
  // (--inject-error passes MPI_COMM_NULL, whose errors go to MPI_COMM_WORLD.)
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  struct sigaction on_alarm = {};
  on_alarm.sa_handler = &on_hang;
  sigaction(SIGALRM, &on_alarm, nullptr);
  const Catalog& cat = Catalog::get();
  const std::vector<Collective>& colls = collectives();
  Rng rng(a.seed);
  Comms comms(rng);
  Tally tally;
  std::vector<std::int64_t> per_coll(colls.size(), 0);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::int64_t i = 0; i < a.calls; ++i) {
    if (rng.chance(3)) {
      const int k = 1 + static_cast<int>(rng.below(Comms::kKinds - 1));
      comms.recreate(k, rng);
    }
    Call c;
    c.index = i;
    c.seed = a.seed;
    c.coll = static_cast<int>(rng.below(static_cast<std::int64_t>(colls.size())));
    c.comm_kind = static_cast<int>(rng.below(Comms::kKinds));
    c.comm_name = Comms::name(c.comm_kind);
    c.comm = comms.at(c.comm_kind);
    c.type = &cat.types[static_cast<std::size_t>(rng.below(static_cast<std::int64_t>(cat.drawn)))];
    std::vector<const OpDesc*> valid;
    for (const OpDesc& op : cat.ops)
      if (op_applies(op, *c.type)) valid.push_back(&op);
    c.op = valid[static_cast<std::size_t>(rng.below(static_cast<std::int64_t>(valid.size())))];
    c.count = draw_count(rng, a.max_count);
    c.root_draw = rng.next();
    c.in_place = rng.chance(30);
    c.cpp_api = rng.chance(50);
    c.algorithm_draw = rng.next();
    c.blocks_draw = rng.next();
    c.inject = i == a.inject;
    // Draws added later, outside the stream (differential.hpp): MPI_FLOAT
    // for a third of the MPI_DOUBLE calls (the same operators apply), real
    // data in half the calls on types with floating-point fields (not for
    // MPI_PROD, whose products of 16 real values may overflow).
    const std::uint64_t extra = mix(mix(a.seed, 0x5eed), static_cast<std::uint64_t>(i));
    if (c.type->name == "MPI_DOUBLE" && extra % 3 == 0) c.type = &cat.types[static_cast<std::size_t>(cat.float_type)];
    c.real = c.type->real && (extra >> 8) % 2 == 0 && c.op->name != "MPI_PROD";
    if (a.only >= 0 && i != a.only) continue;
    MPI_Comm_size(c.comm, &c.size);
    MPI_Comm_rank(c.comm, &c.rank);
    c.ocomm = i == a.inject_error && c.rank == c.size - 1 ? MPI_COMM_NULL : c.comm;
    if (a.trace && rank == 0) {
      std::printf(
          "differential: call %lld: %s comm=%s type=%s op=%s count=%lld root_draw=%llu in_place=%d real=%d api=%s\n",
          static_cast<long long>(i), colls[static_cast<std::size_t>(c.coll)].name, c.comm_name, c.type->name.c_str(),
          c.op->name.c_str(), static_cast<long long>(c.count), static_cast<unsigned long long>(c.root_draw),
          c.in_place ? 1 : 0, c.real ? 1 : 0, c.cpp_api ? "c++" : "c");
      std::fflush(stdout);
    }
    const auto start = std::chrono::steady_clock::now();
    arm_watchdog(a, argv[0], p, rank, i, colls[static_cast<std::size_t>(c.coll)].name, c.comm_name);
    colls[static_cast<std::size_t>(c.coll)].run(c, tally);
    alarm(0);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (a.slow > 0 && took > a.slow && rank == 0)
      std::printf("differential: call %lld (%s, %s, %s, count %lld, %s) took %.2f s\n", static_cast<long long>(i),
                  colls[static_cast<std::size_t>(c.coll)].name, c.comm_name, c.type->name.c_str(),
                  static_cast<long long>(c.count), c.cpp_api ? "c++" : "c", took);
    ++per_coll[static_cast<std::size_t>(c.coll)];
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::int64_t totals[2] = {tally.mismatches, tally.errors};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    std::string mix;
    for (std::size_t k = 0; k < colls.size(); ++k)
      mix += std::string(k == 0 ? "" : " ") + colls[k].name + "=" + std::to_string(per_coll[k]);
    std::printf("differential: seed=%llu np=%d calls=%lld (%s) mismatches=%lld errors=%lld time=%.1fs\n",
                static_cast<unsigned long long>(a.seed), p, static_cast<long long>(a.calls), mix.c_str(),
                static_cast<long long>(totals[0]), static_cast<long long>(totals[1]), secs);
    if (totals[0] + totals[1] > 0)
      std::printf("differential: FAILED; repeat with: %s\n", repeat_command(a, argv[0], p, -1).c_str());
    std::fflush(stdout);
  }
  return totals[0] + totals[1] > 0 ? 1 : 0;
}

}  // namespace optcoll::differential

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rc = optcoll::differential::run(argc, argv);
  optcoll::differential::Catalog::release();
  MPI_Finalize();
  return rc;
}
