// Shared helpers of the MPI tests: datatypes under test (with their buffer
// layouts), user operators, random data, comparisons.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "optcoll/plan/algorithms.hpp"

namespace optcoll::test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}
// Sets an environment variable for the object's lifetime: to `value` at
// every rank, or to `at_rank0` at rank 0 and `others` elsewhere (null:
// unset). optcoll reads rank 0's when a communicator's cache is built.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : ScopedEnv(name, value, value) {}
  ScopedEnv(const char* name, const char* at_rank0, const char* others) : name_(name) {
    const char* v = world_rank() == 0 ? at_rank0 : others;
    if (v != nullptr) setenv(name, v, 1);
  }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

inline int ceil_log2(int p) {
  int q = 0;
  while ((std::int64_t{1} << q) < p) ++q;
  return q;
}

// A seed from a few integers (FNV-1a style).
inline std::uint64_t seed_of(std::initializer_list<std::int64_t> xs) {
  std::uint64_t h = 14695981039346656037u;
  for (std::int64_t x : xs) {
    h ^= static_cast<std::uint64_t>(x);
    h *= 1099511628211u;
  }
  return h;
}

// Sentinel in the holes of strided buffers; must survive every collective.
inline constexpr std::int32_t kHole = 0x5a5a5a5a;
// Modulus of the non-commutative 2x2 matrix product.
inline constexpr std::int64_t kPrime = 1000003;

enum class Kind { int32, float64, strided, matrix };

inline const char* name(Kind k) {
  switch (k) {
    case Kind::int32:
      return "MPI_INT";
    case Kind::float64:
      return "MPI_DOUBLE";
    case Kind::strided:
      return "strided";
    case Kind::matrix:
      return "matrix";
  }
  return "?";
}

// Calls fn(arg) when MPI_Finalize deletes MPI_COMM_SELF's attributes (MPI
// still works then): frees what the tests keep to the end, which MPICH
// would otherwise report as leaked under LeakSanitizer.
inline void at_finalize(MPI_Comm_delete_attr_function* fn, void* arg) {
  int key = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, fn, &key, nullptr);
  MPI_Comm_set_attr(MPI_COMM_SELF, key, arg);
  MPI_Comm_free_keyval(&key);  // (valid while the attribute lives)
}

// The datatypes under test, created once, freed at MPI_Finalize.
struct Types {
  MPI_Datatype strided = MPI_DATATYPE_NULL;  // ints at 0 and 2 of every 4: holes at 1 and 3
  MPI_Datatype matrix = MPI_DATATYPE_NULL;   // contiguous 4 ints: a 2x2 matrix, row-major

  static const Types& get() {
    static Types t = [] {
      Types x;
      MPI_Datatype v = MPI_DATATYPE_NULL;
      MPI_Type_vector(2, 1, 2, MPI_INT, &v);
      MPI_Type_create_resized(v, 0, 4 * sizeof(std::int32_t), &x.strided);
      MPI_Type_free(&v);
      MPI_Type_commit(&x.strided);
      MPI_Type_contiguous(4, MPI_INT, &x.matrix);
      MPI_Type_commit(&x.matrix);
      at_finalize(&release, &t);
      return x;
    }();
    return t;
  }

 private:
  static int release(MPI_Comm, int, void* types, void*) {
    auto* t = static_cast<Types*>(types);
    MPI_Type_free(&t->strided);
    MPI_Type_free(&t->matrix);
    return MPI_SUCCESS;
  }
};

// A buffer of count elements of kind k, as raw 32-bit words (doubles take
// two). words_per_element and which words are data follow the layouts.
struct Buffer {
  Kind kind = Kind::int32;
  std::int64_t count = 0;
  std::vector<std::int32_t> words;

  Buffer(Kind k, std::int64_t n) : kind(k), count(n), words(static_cast<std::size_t>(n * stride()) + 1, kHole) {}
  std::int64_t stride() const { return kind == Kind::int32 ? 1 : kind == Kind::float64 ? 2 : 4; }
  MPI_Datatype type() const {
    switch (kind) {
      case Kind::int32:
        return MPI_INT;
      case Kind::float64:
        return MPI_DOUBLE;
      case Kind::strided:
        return Types::get().strided;
      case Kind::matrix:
        return Types::get().matrix;
    }
    return MPI_DATATYPE_NULL;
  }
  void* data() { return words.data(); }
  const void* data() const { return words.data(); }

  // Random data (holes keep kHole). Values small enough that SUM over 16
  // ranks is exact in int32 and double.
  void fill(std::uint64_t seed) {
    std::mt19937_64 g(seed);
    std::uniform_int_distribution<int> small(-1000, 1000);
    std::uniform_int_distribution<int> mod(0, static_cast<int>(kPrime) - 1);
    for (std::int64_t i = 0; i < count; ++i) {
      const auto at = [&](std::int64_t w) -> std::int32_t& {
        return words[static_cast<std::size_t>(i * stride() + w)];
      };
      switch (kind) {
        case Kind::int32:
          at(0) = small(g);
          break;
        case Kind::float64: {
          const double d = small(g);
          std::memcpy(&at(0), &d, sizeof d);
          break;
        }
        case Kind::strided:
          at(0) = small(g);
          at(2) = small(g);
          break;
        case Kind::matrix:
          for (int w = 0; w < 4; ++w) at(w) = mod(g);
          break;
      }
    }
  }
};

// Index of the first word where a and b differ, or -1.
inline std::int64_t first_difference(const Buffer& a, const Buffer& b) {
  for (std::size_t i = 0; i < a.words.size(); ++i)
    if (a.words[i] != b.words[i]) return static_cast<std::int64_t>(i);
  return -1;
}

// User operators. ring_op: commutative, a (+) b = a + b + a*b mod kPrime
// (that is (1+a)(1+b) - 1), on MPI_INT and the strided type (data words
// only). matrix_op: the 2x2 matrix product mod kPrime, not commutative; for
// MPI_Reduce_local(in, inout): inout = in * inout.
inline std::int32_t ring(std::int64_t a, std::int64_t b) {
  const std::int64_t m = kPrime;
  const std::int64_t x = ((a % m) + m) % m;
  const std::int64_t y = ((b % m) + m) % m;
  return static_cast<std::int32_t>((x + y + x * y) % m);
}

inline void ring_fn(void* in, void* inout, int* len, MPI_Datatype* type) {
  auto* a = static_cast<std::int32_t*>(in);
  auto* b = static_cast<std::int32_t*>(inout);
  if (*type == MPI_INT) {
    for (int i = 0; i < *len; ++i) b[i] = ring(a[i], b[i]);
  } else {
    for (int i = 0; i < *len; ++i) {
      b[4 * i] = ring(a[4 * i], b[4 * i]);
      b[4 * i + 2] = ring(a[4 * i + 2], b[4 * i + 2]);
    }
  }
}

inline void matrix_fn(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<std::int32_t*>(in);
  auto* b = static_cast<std::int32_t*>(inout);
  for (int i = 0; i < *len; ++i) {
    const std::int64_t a0 = a[4 * i], a1 = a[4 * i + 1], a2 = a[4 * i + 2], a3 = a[4 * i + 3];
    const std::int64_t b0 = b[4 * i], b1 = b[4 * i + 1], b2 = b[4 * i + 2], b3 = b[4 * i + 3];
    b[4 * i] = static_cast<std::int32_t>((a0 * b0 + a1 * b2) % kPrime);
    b[4 * i + 1] = static_cast<std::int32_t>((a0 * b1 + a1 * b3) % kPrime);
    b[4 * i + 2] = static_cast<std::int32_t>((a2 * b0 + a3 * b2) % kPrime);
    b[4 * i + 3] = static_cast<std::int32_t>((a2 * b1 + a3 * b3) % kPrime);
  }
}

// The user operators, created once, freed at MPI_Finalize.
struct Ops {
  MPI_Op ring = MPI_OP_NULL;
  MPI_Op matrix = MPI_OP_NULL;
  static const Ops& get() {
    static Ops o = [] {
      Ops x;
      MPI_Op_create(&ring_fn, 1, &x.ring);
      MPI_Op_create(&matrix_fn, 0, &x.matrix);
      at_finalize(&release, &o);
      return x;
    }();
    return o;
  }

 private:
  static int release(MPI_Comm, int, void* ops, void*) {
    auto* o = static_cast<Ops*>(ops);
    MPI_Op_free(&o->ring);
    MPI_Op_free(&o->matrix);
    return MPI_SUCCESS;
  }
};

// A communicator for one test: a fresh duplicate of MPI_COMM_WORLD (so that
// each test builds its own optcoll cache), freed at scope exit.
class TestComm {
 public:
  TestComm() { MPI_Comm_dup(MPI_COMM_WORLD, &comm_); }
  ~TestComm() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  TestComm(const TestComm&) = delete;
  TestComm& operator=(const TestComm&) = delete;
  operator MPI_Comm() const { return comm_; }
  MPI_Comm& get() { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Roots 0, p-1 and p/2 without repetitions.
inline std::vector<int> test_roots(int p) {
  std::vector<int> r{0};
  if (p - 1 != 0) r.push_back(p - 1);
  if (p / 2 != 0 && p / 2 != p - 1) r.push_back(p / 2);
  return r;
}

// Counts 0, 1, q-1, q+1, 1000 without repetitions (q = ceil(log2 p)).
inline std::vector<std::int64_t> test_counts(int p) {
  const std::int64_t q = ceil_log2(p);
  std::vector<std::int64_t> c{0, 1, q + 1, 1000};
  if (q - 1 >= 0) c.push_back(q - 1);
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  return c;
}

inline std::string where(int p, int root, std::int64_t count, Kind k, const std::string& alg, std::int64_t blocks) {
  return "p=" + std::to_string(p) + " root=" + std::to_string(root) + " count=" + std::to_string(count) +
         " type=" + name(k) + " algorithm=" + (alg.empty() ? "default" : alg) +
         " blocks=" + (blocks == 0 ? "auto" : std::to_string(blocks));
}

// Per-rank counts of the v-variants: the distributions of the all-broadcast
// benchmarks and the simulator tests: regular m, (i mod 3) m, degenerate (all at rank
// p/2), spikes, all zero, one zero.
enum class Dist { regular, irregular, degenerate, spikes, all_zero, one_zero };
inline constexpr Dist kDists[] = {Dist::regular, Dist::irregular, Dist::degenerate,
                                  Dist::spikes,  Dist::all_zero,  Dist::one_zero};
inline const char* name(Dist d) {
  constexpr const char* names[] = {"regular", "irregular", "degenerate", "spikes", "all_zero", "one_zero"};
  return names[static_cast<int>(d)];
}
inline std::vector<int> counts_of(Dist d, int p, int m) {
  std::vector<int> c(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) {
    int x = 0;
    switch (d) {
      case Dist::regular:
        x = m;
        break;
      case Dist::irregular:
        x = (i % 3) * m;
        break;
      case Dist::degenerate:
        x = i == p / 2 ? m * p : 0;
        break;
      case Dist::spikes:
        x = i % 7 == 3 ? 5 * m : 1;
        break;
      case Dist::all_zero:
        x = 0;
        break;
      case Dist::one_zero:
        x = i == p - 1 ? 0 : m;
        break;
    }
    c[static_cast<std::size_t>(i)] = x;
  }
  return c;
}

// A reduction test's operator on one kind of data.
struct OpCase {
  Kind kind;
  MPI_Op op;
  const char* name;
};

// One way of calling a collective in the MPI tests: Options (algorithm,
// blocks; "" and 0: the automatic choice) and MPI_IN_PLACE.
struct Variant {
  std::string algorithm;
  std::int64_t blocks = 0;
  bool in_place = false;
};

// Stands for `count` blocks in registry_variants().
inline constexpr std::int64_t kCountBlocks = -1;

// The automatic choice (in place too when `in_place`), then every registry
// algorithm of op once per entry of `named`, and the pipelined ones
// (Blocking::n) also once per entry of `pipelined` when count > 2 (the
// entries' algorithm names are ignored).
inline std::vector<Variant> registry_variants(plan::Collective op, std::int64_t count, bool in_place,
                                              std::initializer_list<Variant> named,
                                              std::initializer_list<Variant> pipelined) {
  std::vector<Variant> v{{"", 0, false}};
  if (in_place) v.push_back({"", 0, true});
  for (const plan::AlgorithmInfo& a : plan::algorithms()) {
    if (a.op != op) continue;
    for (const Variant& x : named) v.push_back({std::string(a.name), x.blocks, x.in_place});
    if (a.blocking != plan::Blocking::n || count <= 2) continue;
    for (const Variant& x : pipelined)
      v.push_back({std::string(a.name), x.blocks == kCountBlocks ? count : x.blocks, x.in_place});
  }
  return v;
}

}  // namespace optcoll::test
